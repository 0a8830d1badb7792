import { api, ApiError, rememberSession, type Session } from './api';
import { h, replace } from './dom';
import { assetsPage } from './assets-page';
import { comparePage } from './compare-page';
import { deliveriesPage, deliveryPage } from './deliveries-page';
import { editorPage } from './editor-page';
import { fontsPage } from './fonts-page';
import { documentsPage, usagePage } from './usage-page';
import { invitationPage, settingsPage, signInPage, templatesPage } from './pages';

const main = document.getElementById('main') as HTMLElement;
const top = document.getElementById('top') as HTMLElement;
let session: Session | null = null;

function header(): void {
  if (session === null) {
    replace(top, h('span', { class: 'brand' }, 'docrender workspace'));
    return;
  }
  const signOut = h('button', { type: 'button', class: 'link', 'data-test': 'sign-out' }, 'Sign out');
  signOut.addEventListener('click', () => {
    void api.signOut().finally(() => {
      session = null;
      location.hash = '#/';
      void route();
    });
  });
  replace(
    top,
    h('span', { class: 'brand' }, 'docrender workspace'),
    h('nav', {}, h('a', { href: '#/' }, 'Templates'), h('a', { href: '#/documents', 'data-test': 'documents-link' }, 'Documents'),
      h('a', { href: '#/usage', 'data-test': 'usage-link' }, 'Usage'),
      h('a', { href: '#/fonts', 'data-test': 'fonts-link' }, 'Fonts'),
      h('a', { href: '#/assets', 'data-test': 'assets-link' }, 'Assets'),
      h('a', { href: '#/deliveries', 'data-test': 'deliveries-link' }, 'Webhook deliveries'),
      session.user.role === 'owner' ? h('a', { href: '#/settings', 'data-test': 'settings-link' }, 'Settings') : null),
    h('span', { class: 'who', 'data-test': 'who' }, `${session.user.name} (${session.user.role})`),
    signOut,
  );
}

async function route(): Promise<void> {
  const invitation = /^#\/invitation\/([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (invitation) {
    // whoever is signed in, the link is for someone new: accepting signs its invitee in
    header();
    await invitationPage(main, invitation[1], (joined) => {
      session = joined;
      location.hash = '#/';
    });
    return;
  }
  if (session === null) {
    try {
      session = await api.session();
      rememberSession(session);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
      header();
      signInPage(main, (signedIn) => {
        session = signedIn;
        void route();
      });
      return;
    }
  }
  header();
  const path = location.hash.replace(/^#/, '') || '/';
  const editor = /^\/templates\/([0-9a-f-]{36})(?:\/versions\/(\d+))?$/.exec(path);
  const compare = /^\/templates\/([0-9a-f-]{36})\/compare\/(\d+)\/(\d+)$/.exec(path);
  const deliveries = /^\/deliveries(?:\?skip=(\d+))?$/.exec(path);
  const delivery = /^\/deliveries\/([0-9a-f-]{36})$/.exec(path);
  const documents = /^\/documents(?:\?(.*))?$/.exec(path);
  const assets = /^\/assets(?:\?(.*))?$/.exec(path);
  if (documents) await documentsPage(main, new URLSearchParams(documents[1] ?? ''));
  else if (path === '/usage') await usagePage(main);
  else if (path === '/fonts') await fontsPage(main, session);
  else if (assets) await assetsPage(main, session, new URLSearchParams(assets[1] ?? '').get('after'));
  else if (deliveries) await deliveriesPage(main, Number(deliveries[1] ?? '0'));
  else if (delivery) await deliveryPage(main, session, delivery[1]);
  else if (compare) await comparePage(main, compare[1], Number(compare[2]), Number(compare[3]));
  else if (editor) await editorPage(main, session, editor[1], editor[2] === undefined ? null : Number(editor[2]));
  else if (path === '/settings') await settingsPage(main, session);
  else await templatesPage(main, session);
}

function run(): void {
  route().catch((error: unknown) => replace(main, h('p', { class: 'problem', role: 'alert' }, `Something went wrong: ${(error as Error).message}`)));
}

window.addEventListener('hashchange', run);
run();
