import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** Receives the tags of a change made through this node's database handle. */
export interface ChangeReceiver {
  apply(tags: readonly string[]): void;
}

/**
 * A Kysely plugin that changes no query: it only rides along with the handle, and with every
 * transaction made from it (Kysely hands plugins on), so notifyChange can find the caches of this
 * node from whatever executor a write path holds and drop their entries at once, without waiting
 * for the notification to come back from PostgreSQL.
 */
export class LocalChanges implements KyselyPlugin {
  readonly receivers = new Set<ChangeReceiver>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }

  apply(tags: readonly string[]): void {
    for (const receiver of this.receivers) receiver.apply(tags);
  }
}
