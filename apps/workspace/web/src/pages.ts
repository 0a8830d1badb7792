import { api, ApiError, rememberSession, type ApiKey, type Role, type Session } from './api';
import { formatTime, h, replace, showPage, tableRows } from './dom';

const message = (error: unknown): string => (error instanceof ApiError ? [error.message, ...error.problems].join('; ') : (error as Error).message);

/** Shows a form that signs in when submitted (`signIn`): the session is remembered and handed on, or `problem` says why not. */
function showSignInForm(main: HTMLElement, form: HTMLFormElement, problem: HTMLElement, signIn: () => Promise<Session>, onSignedIn: (session: Session) => void): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    signIn().then(
      (session) => {
        rememberSession(session);
        onSignedIn(session);
      },
      (error: unknown) => {
        problem.textContent = message(error);
      },
    );
  });
  replace(main, form);
}

/** Sign-in (issue 35 item 1). */
export function signInPage(main: HTMLElement, onSignedIn: (session: Session) => void): void {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true, 'data-test': 'email' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true, 'data-test': 'password' });
  const problem = h('p', { class: 'problem', role: 'alert', 'data-test': 'sign-in-problem' });
  const form = h(
    'form',
    { class: 'sign-in' },
    h('h1', {}, 'Sign in to the workspace'),
    h('label', {}, 'E-mail ', email),
    h('label', {}, 'Password ', password),
    h('button', { type: 'submit', class: 'primary', 'data-test': 'sign-in' }, 'Sign in'),
    problem,
  );
  showSignInForm(main, form, problem, () => api.signIn(email.value, password.value), onSignedIn);
}

/** Accepting an invitation (issue 35 item 1): the token is in the link's fragment; the invitee chooses a name and password. */
export async function invitationPage(main: HTMLElement, token: string, onSignedIn: (session: Session) => void): Promise<void> {
  let invitation: Awaited<ReturnType<typeof api.invitation>>;
  try {
    invitation = await api.invitation(token);
  } catch (error) {
    replace(main, h('p', { class: 'problem', role: 'alert', 'data-test': 'invitation-problem' }, message(error)));
    return;
  }
  const name = h('input', { type: 'text', name: 'name', autocomplete: 'name', required: true, 'data-test': 'invitee-name' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'new-password', required: true, minlength: 12, 'data-test': 'invitee-password' });
  const problem = h('p', { class: 'problem', role: 'alert', 'data-test': 'invitation-problem' });
  const form = h(
    'form',
    { class: 'sign-in' },
    h('h1', {}, 'Join the workspace'),
    h('p', {}, 'You are invited as ', h('strong', {}, invitation.email), ` (${invitation.role}). The invitation works once, until ${formatTime(invitation.expiresAt)}.`),
    h('label', {}, 'Your name ', name),
    h('label', {}, 'Password (at least 12 characters) ', password),
    h('button', { type: 'submit', class: 'primary', 'data-test': 'accept-invitation' }, 'Join'),
    problem,
  );
  showSignInForm(main, form, problem, () => api.acceptInvitation(token, name.value, password.value), onSignedIn);
}

/** Templates: search, list, create blank or from an example (issue 35 item 2). */
export async function templatesPage(main: HTMLElement, session: Session): Promise<void> {
  const search = h('input', { type: 'search', placeholder: 'Search by name', 'aria-label': 'search templates', 'data-test': 'search' });
  const list = h('table', { class: 'list', 'data-test': 'templates' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  async function refresh(): Promise<void> {
    const page = await api.templates(search.value);
    replace(
      list,
      ...tableRows(
        ['Name', 'Latest published', 'Versions', 'Updated', 'By'],
        page.items.map((t) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#/templates/${t.id}`, 'data-test': 'template-link' }, t.name)),
            h('td', {}, t.latestVersionNumber === null ? '—' : `v${t.latestVersionNumber}`),
            h('td', {}, t.versionCount),
            h('td', {}, formatTime(t.updatedAt)),
            h('td', {}, t.updatedBy),
          ),
        ),
      ),
    );
  }
  let timer: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void refresh(), 200);
  });

  let create: HTMLElement | null = null;
  if (session.user.role !== 'viewer') {
    const name = h('input', { type: 'text', required: true, placeholder: 'Template name', 'aria-label': 'new template name', 'data-test': 'new-name' });
    const example = h('select', { 'aria-label': 'start from', 'data-test': 'new-example' }, h('option', { value: '' }, 'blank template'));
    for (const e of (await api.examples()).items) example.append(h('option', { value: e.key }, `example: ${e.name}`));
    const form = h('form', { class: 'create' }, name, example, h('button', { type: 'submit', class: 'primary', 'data-test': 'create' }, 'Create template'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      api.createTemplate(name.value, example.value === '' ? undefined : example.value).then(
        (created) => {
          location.hash = `#/templates/${created.template.id}/versions/${created.version.versionNumber}`;
        },
        (error: unknown) => {
          problem.textContent = message(error);
        },
      );
    });
    create = form;
  }
  showPage(main, 'Templates', create, problem, search, list);
  await refresh();
}

/** Organisation settings (issue 35 item 4): API keys (shown once) and the webhook signing secret. Owners only. */
export async function settingsPage(main: HTMLElement, session: Session): Promise<void> {
  if (session.user.role !== 'owner') {
    replace(main, h('p', {}, 'Only owners manage API keys and the webhook signing secret.'));
    return;
  }
  const keys = h('table', { class: 'list', 'data-test': 'api-keys' });
  const created = h('div', { class: 'created-key', 'data-test': 'created-key', role: 'status' });
  const problem = h('p', { class: 'problem', role: 'alert' });
  async function refreshKeys(): Promise<void> {
    const { items } = await api.apiKeys();
    replace(
      keys,
      ...tableRows(
        ['Label', 'Environment', 'Starts with', 'Created', 'Last used', 'Revoked', ''],
        items.map((k: ApiKey) =>
          h(
            'tr',
            {},
            h('td', {}, k.label ?? '—'),
            h('td', {}, k.environment),
            h('td', { class: 'mono' }, `service_${k.environment === 'test' ? 'test' : 'prod'}_${k.lookupPrefix}…`),
            h('td', {}, formatTime(k.createdAt)),
            h('td', { 'data-test': 'key-last-used' }, k.lastUsedAt === null ? 'never' : formatTime(k.lastUsedAt)),
            h('td', {}, formatTime(k.revokedAt)),
            h(
              'td',
              {},
              k.revokedAt === null
                ? h('button', { type: 'button', onclick: () => void api.revokeApiKey(k.id).then(refreshKeys, (e: unknown) => (problem.textContent = message(e))), 'data-test': 'revoke' }, 'Revoke')
                : null,
            ),
          ),
        ),
      ),
    );
  }
  const label = h('input', { type: 'text', placeholder: 'Label', 'aria-label': 'key label', 'data-test': 'key-label' });
  const environment = h('select', { 'aria-label': 'key environment', 'data-test': 'key-environment' }, h('option', { value: 'test' }, 'test'), h('option', { value: 'production' }, 'production'));
  const form = h('form', { class: 'create' }, label, environment, h('button', { type: 'submit', class: 'primary', 'data-test': 'create-key' }, 'Create API key'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    api.createApiKey(environment.value === 'production' ? 'production' : 'test', label.value.trim() === '' ? null : label.value.trim()).then(
      (key) => {
        replace(created, h('p', {}, 'Copy the key now: it is shown this once and cannot be recovered.'), h('code', { class: 'secret', 'data-test': 'new-key' }, key.key));
        label.value = '';
        void refreshKeys();
      },
      (error: unknown) => {
        problem.textContent = message(error);
      },
    );
  });

  const secretBox = h('div', { 'data-test': 'webhook-secret' });
  async function showSecret(rotated?: Awaited<ReturnType<typeof api.webhookSecret>>): Promise<void> {
    const secret = rotated ?? (await api.webhookSecret());
    replace(
      secretBox,
      h('p', {}, 'Active: ', h('code', { class: 'secret', 'data-test': 'active-secret' }, secret.active)),
      secret.previous !== null
        ? h('p', {}, 'Previous (still signs until ', formatTime(secret.previousExpiresAt), '): ', h('code', { class: 'secret', 'data-test': 'previous-secret' }, secret.previous))
        : null,
    );
  }
  const rotate = h('button', { type: 'button', 'data-test': 'rotate' }, 'Rotate secret');
  rotate.addEventListener('click', () => {
    if (!window.confirm('Rotate the webhook signing secret? The current one keeps signing for 24 hours.')) return;
    api.rotateWebhookSecret().then(showSecret, (e: unknown) => (problem.textContent = message(e)));
  });

  const people = await peopleSection(session, (e) => (problem.textContent = message(e)));
  showPage(
    main,
    'Organisation settings',
    problem,
    people,
    h('h2', {}, 'API keys'),
    form,
    created,
    keys,
    h('h2', {}, 'Webhook signing secret'),
    h('p', {}, 'Callbacks are signed with it (X-Service-Signature). After a rotation both secrets sign for 24 hours.'),
    secretBox,
    rotate,
  );
  await Promise.all([refreshKeys(), showSecret()]);
}

const ROLES: Role[] = ['owner', 'editor', 'viewer'];
const roleSelect = (selected: Role, attributes: Record<string, string>): HTMLSelectElement => {
  const select = h('select', attributes, ...ROLES.map((r) => h('option', { value: r }, r)));
  select.value = selected;
  return select;
};

/** Members and their roles, invitations (the link shown once), for owners (issue 35 item 1). */
async function peopleSection(session: Session, onError: (error: unknown) => void): Promise<HTMLElement> {
  const members = h('table', { class: 'list', 'data-test': 'members' });
  const invitations = h('table', { class: 'list', 'data-test': 'invitations' });
  const created = h('div', { class: 'created-key', 'data-test': 'created-invitation', role: 'status' });
  async function refresh(): Promise<void> {
    const [m, i] = await Promise.all([api.members(), api.invitations()]);
    replace(
      members,
      ...tableRows(
        ['Name', 'E-mail', 'Role', ''],
        m.items.map((member) => {
          const role = roleSelect(member.role, { 'aria-label': `role of ${member.email}`, 'data-test': 'member-role' });
          role.addEventListener('change', () => void api.changeRole(member.id, role.value as Role).then(refresh, (e: unknown) => (onError(e), void refresh())));
          const remove = h('button', { type: 'button', 'data-test': 'remove-member' }, member.id === session.user.id ? 'Leave' : 'Remove');
          remove.addEventListener('click', () => {
            if (!window.confirm(`Remove ${member.email} from the organisation?`)) return;
            void api.removeMember(member.id).then(refresh, onError);
          });
          return h('tr', {}, h('td', {}, member.name), h('td', {}, member.email), h('td', {}, role), h('td', {}, remove));
        }),
      ),
    );
    replace(
      invitations,
      ...tableRows(
        ['Invited', 'Role', 'By', 'Expires', ''],
        i.items.map((inv) =>
          h(
            'tr',
            {},
            h('td', {}, inv.email),
            h('td', {}, inv.role),
            h('td', {}, inv.invitedBy),
            h('td', {}, formatTime(inv.expiresAt)),
            h('td', {}, h('button', { type: 'button', onclick: () => void api.revokeInvitation(inv.id).then(refresh, onError), 'data-test': 'revoke-invitation' }, 'Revoke')),
          ),
        ),
      ),
    );
  }
  const email = h('input', { type: 'email', required: true, placeholder: 'E-mail address', 'aria-label': 'invitee e-mail', 'data-test': 'invite-email' });
  const role = roleSelect('editor', { 'aria-label': 'invitee role', 'data-test': 'invite-role' });
  const form = h('form', { class: 'create' }, email, role, h('button', { type: 'submit', class: 'primary', 'data-test': 'invite' }, 'Invite'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    api.invite(email.value.trim(), role.value as Role).then((invitation) => {
      const link = new URL(invitation.link, location.origin).href;
      replace(
        created,
        h('p', {}, `Send this link to ${invitation.email}: it is shown this once, works once and expires ${formatTime(invitation.expiresAt)}.`),
        h('code', { class: 'secret', 'data-test': 'invitation-link' }, link),
      );
      email.value = '';
      void refresh();
    }, onError);
  });
  await refresh();
  return h('div', {}, h('h2', {}, 'People'), members, h('h3', {}, 'Invitations'), form, created, invitations);
}
