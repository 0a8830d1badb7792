import type { AddressClass } from './address-class';

/** Why the egress policy refused a destination. Permanent for the given URL and policy: retrying does not help. */
export enum EgressRefusal {
  /** The text is not an absolute URL. */
  InvalidUrl = 'invalid-url',
  /** Not https (nor http while allowHttp is true). */
  SchemeNotAllowed = 'scheme-not-allowed',
  /** The URL carries a user name or password (`https://user:pass@host/`): credentials do not belong in a callback URL. */
  CredentialsInUrl = 'credentials-in-url',
  /** The host is, or resolves to, an address outside the public internet (or a cloud metadata address). */
  AddressNotAllowed = 'address-not-allowed',
}

/** Why an allowed request failed on the way. Transient as far as the guard knows: a retry may succeed. */
export enum EgressFailure {
  /** The host name did not resolve (or resolved to nothing). */
  DnsLookupFailed = 'dns-lookup-failed',
  /** Connecting, sending or receiving failed (refused, reset, TLS error, …). */
  ConnectionFailed = 'connection-failed',
  /** The whole exchange, DNS lookup included, took longer than timeoutMs. */
  Timeout = 'timeout',
  /** The response body exceeded maxBytes (declared by Content-Length or counted while reading). */
  ResponseTooLarge = 'response-too-large',
}

/**
 * Messages and `target` name the destination by its origin only (`https://host:port`): callback URLs carry
 * unguessable tokens in their path or query (spec 6.4 advice) that must not reach logs.
 */
export class EgressRefusedError extends Error {
  constructor(
    readonly reason: EgressRefusal,
    /** The destination's origin, or '(invalid URL)'. */
    readonly target: string,
    detail: string,
    /** The refused address and its class, for AddressNotAllowed (`ip` is the name itself for `localhost` names). */
    readonly address?: { ip: string; class: AddressClass },
  ) {
    super(`Egress to ${target} refused (${reason}): ${detail}`);
    this.name = 'EgressRefusedError';
  }
}

export class EgressFailedError extends Error {
  constructor(
    readonly reason: EgressFailure,
    /** The destination's origin. */
    readonly target: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Egress to ${target} failed (${reason}): ${detail}`, options);
    this.name = 'EgressFailedError';
  }
}
