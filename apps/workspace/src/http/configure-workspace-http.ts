import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@docrender/observability';
import { serveWorkspaceOpenApi } from './openapi';

/** Where the workspace is served, by its own app and by the one-process mode alike. */
export const WORKSPACE_PATH = '/workspace';

/**
 * The pages load only this origin's scripts, styles, fonts and workers: no inline script, no inline style but the
 * editor's nonce'd style element, no eval (pdf.js 6 needs none), nothing from another host, and the pages cannot be
 * framed. This is the policy of every answer but the page itself (contentSecurityPolicy with its nonce).
 */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy(null);

/**
 * The policy, with the nonce of the page's own style elements when given: the code editor (CodeMirror) writes its
 * styles into a <style> element carrying the nonce the page hands it (index.html's csp-nonce meta), a new one for
 * every load of the page.
 */
export function contentSecurityPolicy(styleNonce: string | null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    styleNonce === null ? "style-src 'self'" : `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  if (req.path.startsWith(`${WORKSPACE_PATH}/api/`) || req.path === `${WORKSPACE_PATH}/` || req.path === `${WORKSPACE_PATH}/index.html`) {
    res.setHeader('Cache-Control', 'no-store');
  }
  next();
}

/** The front-end's production build (tools/build.mjs): dist/apps/workspace/web, found from the compiled file or the working directory. */
export function findWebBuild(from: string = __dirname): string | null {
  const candidates = [path.resolve(from, '..', '..', 'web'), path.resolve(process.cwd(), 'dist', 'apps', 'workspace', 'web')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html')) && existsSync(path.join(dir, 'app.js'))) ?? null;
}

/** HTTP behaviour of the workspace: security headers on everything, JSON bodies, the built pages, its OpenAPI document. */
export function configureWorkspaceHttp(app: INestApplication, logger: Logger): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.use(securityHeaders);
  express.useBodyParser('json', { limit: '8mb' });
  const web = findWebBuild();
  if (web === null) {
    logger.warn('the workspace front-end is not built (node tools/build.mjs): its pages answer 404', {});
  } else {
    express.use(WORKSPACE_PATH, (req: Request, res: Response, next: NextFunction) => {
      if (req.path === '/' && req.originalUrl === WORKSPACE_PATH) res.redirect(301, `${WORKSPACE_PATH}/`);
      else next();
    });
    // the page itself, with a fresh style nonce in its policy and its csp-nonce meta
    const page = readFileSync(path.join(web, 'index.html'), 'utf8');
    express.use(WORKSPACE_PATH, (req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' || (req.path !== '/' && req.path !== '/index.html') || req.originalUrl === WORKSPACE_PATH) {
        next();
        return;
      }
      const nonce = randomBytes(16).toString('base64');
      res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
      res.type('html').send(page.replace('<meta name="csp-nonce" content="">', `<meta name="csp-nonce" content="${nonce}">`));
    });
    express.useStaticAssets(web, { prefix: `${WORKSPACE_PATH}/`, index: 'index.html', fallthrough: true, maxAge: 0 });
  }
  serveWorkspaceOpenApi(app);
}
