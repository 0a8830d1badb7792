import { api, type Delivery, type Session } from './api';
import { formatTime, h, replace, showPage, tableRows } from './dom';
import { message } from './upload';

const PAGE = 25;

/**
 * The webhook delivery log (issue 35 item 5): the organisation's callbacks newest first, a page at a time; everyone
 * signed in reads it. A failed (abandoned or dropped) delivery can be sent again by an owner.
 */
export async function deliveriesPage(main: HTMLElement, skip: number): Promise<void> {
  const page = await api.deliveries(skip, PAGE);
  const pager = h(
    'p',
    { class: 'toolbar' },
    skip > 0 ? h('a', { href: `#/deliveries?skip=${Math.max(0, skip - PAGE)}`, 'data-test': 'newer' }, '← newer') : null,
    h('span', { class: 'status' }, page.total === 0 ? 'no callbacks yet' : `${skip + 1}–${skip + page.items.length} of ${page.total}`),
    skip + PAGE < page.total ? h('a', { href: `#/deliveries?skip=${skip + PAGE}`, 'data-test': 'older' }, 'older →') : null,
  );
  const rows = page.items.map((d: Delivery) =>
    h(
      'tr',
      { 'data-test': 'delivery' },
      h('td', {}, formatTime(d.createdAt)),
      h('td', {}, d.event),
      h('td', { class: 'mono' }, h('a', { href: `#/deliveries/${d.deliveryId}`, 'data-test': 'delivery-link' }, d.deliveryId)),
      h('td', { class: 'mono' }, d.jobId),
      h('td', { 'data-test': 'delivery-state' }, h('span', { class: `badge ${d.state}` }, d.state)),
      h('td', {}, d.attempts),
      h('td', {}, d.lastHttpStatus ?? '—'),
    ),
  );
  showPage(
    main,
    'Webhook deliveries',
    h('p', {}, 'Every callback of your async jobs (spec 6.3: up to five attempts, 2, 4, 8 and 16 s apart), newest first.'),
    pager,
    h(
      'table',
      { class: 'list', 'data-test': 'deliveries' },
      ...tableRows(['Created', 'Event', 'Delivery id', 'Job id', 'State', 'Attempts', 'Last answer'], rows),
    ),
  );
}

/** One delivery with its attempts (answer, timings) and next attempt; owners may redeliver a failed one. */
export async function deliveryPage(main: HTMLElement, session: Session, deliveryId: string): Promise<void> {
  const d = await api.delivery(deliveryId);
  const problem = h('p', { class: 'problem', role: 'alert' });
  let redeliver: HTMLElement | null = null;
  if (session.user.role === 'owner' && (d.state === 'abandoned' || d.state === 'dropped')) {
    const button = h('button', { type: 'button', class: 'primary', 'data-test': 'redeliver' }, 'Redeliver');
    button.addEventListener('click', () => {
      button.setAttribute('disabled', '');
      api.redeliver(deliveryId).then(
        () => void deliveryPage(main, session, deliveryId),
        (error: unknown) => {
          button.removeAttribute('disabled');
          problem.textContent = message(error);
        },
      );
    });
    redeliver = button;
  }
  replace(
    main,
    h(
      'section',
      {},
      h('p', {}, h('a', { href: '#/deliveries' }, '← all deliveries')),
      h('h1', {}, `Delivery ${d.deliveryId}`),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Event'),
        h('dd', {}, d.event),
        h('dt', {}, 'Job'),
        h('dd', { class: 'mono' }, d.jobId),
        h('dt', {}, 'State'),
        h('dd', { 'data-test': 'delivery-state' }, h('span', { class: `badge ${d.state}` }, d.state)),
        h('dt', {}, 'Next attempt'),
        h('dd', { 'data-test': 'next-attempt' }, d.nextAttemptAt === null ? '—' : formatTime(d.nextAttemptAt)),
        d.lastError === null ? null : h('dt', {}, 'Last error'),
        d.lastError === null ? null : h('dd', {}, d.lastError),
      ),
      redeliver,
      problem,
      h('h2', {}, 'Attempts'),
      h(
        'table',
        { class: 'list', 'data-test': 'attempts' },
        ...tableRows(
          ['#', 'Started', 'Outcome', 'Answer', 'Took', 'Error'],
          d.attemptList.map((a) =>
            h(
              'tr',
              { 'data-test': 'attempt' },
              h('td', {}, a.attempt),
              h('td', {}, formatTime(a.startedAt)),
              h('td', {}, a.outcome ?? 'in flight'),
              h('td', { 'data-test': 'attempt-status' }, a.httpStatus ?? '—'),
              h('td', {}, a.durationMs === null ? '—' : `${a.durationMs} ms`),
              h('td', {}, a.error ?? ''),
            ),
          ),
        ),
      ),
    ),
  );
}
