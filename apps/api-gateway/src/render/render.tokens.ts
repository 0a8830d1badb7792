/** The egress policy (EgressPolicy) the validate endpoint's image checks apply, shared with its worker threads. */
export const VALIDATION_EGRESS_POLICY = Symbol('ValidationEgressPolicy');
