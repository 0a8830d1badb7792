import type { Request, Response } from 'express';

/**
 * The session cookie: httpOnly, SameSite=Strict, Secure (then with the __Host- prefix, which browsers accept only
 * from a secure origin with Path=/ and no Domain) unless WORKSPACE_SECURE_COOKIES=false.
 */
export class SessionCookie {
  readonly name: string;

  constructor(private readonly secure: boolean) {
    this.name = secure ? '__Host-workspace-session' : 'workspace-session';
  }

  read(req: Request): string | null {
    const header = req.headers.cookie;
    if (header === undefined) return null;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === this.name) {
        const value = part.slice(eq + 1).trim();
        return /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : null;
      }
    }
    return null;
  }

  set(res: Response, token: string, expiresAt: Date): void {
    res.cookie(this.name, token, { httpOnly: true, sameSite: 'strict', secure: this.secure, path: '/', expires: expiresAt });
  }

  clear(res: Response): void {
    res.clearCookie(this.name, { httpOnly: true, sameSite: 'strict', secure: this.secure, path: '/' });
  }
}
