import type { Page, PageRequest } from '../storage/pagination.js';
import type { Mode } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit, findRendering, type Rendering, refOf } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';

/** The lists of an account's own records in one mode, each read a page at a time. */
type AccountList = 'payments' | 'payouts' | 'topups' | 'services' | 'logs';

/** The query each list is filtered by: its operation's, as the contract types it. */
export type ListQueryOf<L extends AccountList> = Parameters<Tx[L]['list']>[2];

/**
 * A page of one of the caller's lists: a named read (server/storage/unit.ts), so on SQLite the
 * statement and its rows are the reader thread's work and the event loop only copies the page
 * (docs/performance.md). The query is plain data; the list's repository maps it through its
 * filters (server/storage/list-filters.ts).
 */
export const accountPage = defineUnit(
  import.meta.url,
  'lists.account-page',
  (
    tx,
    a: { list: AccountList; accountId: string; mode: Mode; query: object; page: PageRequest },
  ): Promise<Page<unknown>> => {
    const repository: { list(...args: [string, Mode, object, PageRequest]): Promise<Page<unknown>> } =
      tx[a.list];
    return repository.list(a.accountId, a.mode, a.query, a.page);
  },
);

/**
 * How a page of a list is answered: a named rendering of the page (server/http/renderings.ts)
 * and what it needs besides the page.
 */
interface PageView<Row, C> {
  rendering: Rendering<Page<Row>, C>;
  context: C;
}

/**
 * A page of one of the caller's lists, rendered and serialized where it is read: on SQLite the
 * reader thread, whose answer is then one string. The rows themselves, copied between threads
 * field by field, cost the event loop more than everything else a list request does there.
 */
const renderedAccountPage = defineUnit(
  import.meta.url,
  'lists.account-page-rendered',
  async (
    tx,
    a: {
      list: AccountList;
      accountId: string;
      mode: Mode;
      query: object;
      page: PageRequest;
      rendering: { module: string; name: string };
      context: unknown;
    },
  ): Promise<string> => {
    const page = await accountPage.run(tx, a);
    return JSON.stringify((await findRendering(a.rendering)).render(page, a.context));
  },
);

/**
 * What a list answers: the page's rows, or given a `view`, the page's response as JSON text
 * (the bytes `JSON.stringify` gives its object), rendered where the page is read
 * (`renderedAccountPage`) and sent as it is (`sendJson`).
 */
export type ListAnswer<Row, V> = Promise<V extends PageView<Row, unknown> ? string : Page<Row>>;

/**
 * A page of one of the caller's lists (`accountPage`), or with a `view`, its response rendered
 * to JSON text where it is read (`renderedAccountPage`; see `ListAnswer`).
 */
export function listPage<L extends AccountList, V extends AnyView<ListRow<L>>>(
  deps: Deps,
  caller: Caller,
  list: L,
  query: ListQueryOf<L>,
  page: PageRequest,
  view?: V,
): ListAnswer<ListRow<L>, V> {
  const args = { list, accountId: caller.accountId, mode: caller.mode, query, page };
  const answer = view
    ? deps.store.view(renderedAccountPage, {
        ...args,
        rendering: refOf(view.rendering),
        context: view.context,
      })
    : deps.store.view(accountPage, args);
  return answer as ListAnswer<ListRow<L>, V>;
}

/** A view of a list's rows with any context, or none (the rows themselves). */
// biome-ignore lint/suspicious/noExplicitAny: the context's type is the rendering's own business
export type AnyView<Row> = PageView<Row, any> | undefined;

/** The row type of one of the lists. */
export type ListRow<L extends AccountList> =
  Awaited<ReturnType<Tx[L]['list']>> extends Page<infer Row> ? Row : never;
