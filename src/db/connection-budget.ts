import { DataSource } from "typeorm";

/** What the server says of its connections, and where this process's go. */
export interface ConnectionFacts {
  maxConnections: number;
  superuserReserved: number;
  /** The role's own limit (CONNECTION LIMIT), -1 for none. */
  roleLimit: number;
  superuser: boolean;
  /** Connections open now on the whole server, and by this role (this process's first one included). */
  inUse: number;
  roleInUse: number;
  /** The URL's port is not the server's own: a pooler (PgBouncer) or a forward is in between. */
  behindPooler: boolean;
}

export interface ConnectionBudget {
  /** This process cannot work on this server at all (its pools alone exceed what the server allows). */
  fatal: string | null;
  /** One line for the log: the numbers, and how many more processes like this one fit now. */
  note: string;
  /** True when fewer connections are free now than this process may open (more will wait on refusals). */
  tight: boolean;
}

/**
 * Whether this process's pools fit the server (pure): it holds up to `needed` connections (its pool, its queue's
 * pool and one of the queue's setup, docs/OPERATIONS.md); the server allows max_connections less the superusers'
 * reserve (the role's own limit where it has one). Behind a pooler the server's limits do not bound this process's
 * connections, and nothing is decided.
 */
export function connectionBudget(facts: ConnectionFacts, needed: number): ConnectionBudget {
  const mine = `this process opens up to ${needed} connections`;
  if (facts.behindPooler)
    return {
      fatal: null,
      tight: false,
      note: `${mine}; the URL's port is not the server's own (a pooler in between), so the server's limits are the pooler's to keep`,
    };
  const serverRoom = facts.maxConnections - (facts.superuser ? 0 : facts.superuserReserved);
  const limits = [
    {
      room: serverRoom,
      used: facts.inUse,
      what: `max_connections ${facts.maxConnections}${facts.superuser ? "" : ` less ${facts.superuserReserved} reserved for superusers`}`,
    },
    ...(facts.roleLimit >= 0
      ? [
          {
            room: facts.roleLimit,
            used: facts.roleInUse,
            what: `the role's connection limit ${facts.roleLimit}`,
          },
        ]
      : []),
  ];
  const binding = limits.reduce((a, b) => (b.room - b.used < a.room - a.used ? b : a));
  const fatal = limits.find((limit) => needed > limit.room);
  if (fatal)
    return {
      fatal:
        `${mine} (MEMICL_DB_POOL_SIZE + MEMICL_QUEUE_POOL_SIZE + 1) but the server allows ${fatal.room} in all ` +
        `(${fatal.what}): lower the pool sizes or raise the limit (docs/OPERATIONS.md)`,
      tight: true,
      note: "",
    };
  // One of this process's connections is already open (the one that asked).
  const free = binding.room - binding.used + 1;
  const more = Math.max(0, Math.floor((free - needed) / needed));
  return {
    fatal: null,
    tight: free < needed,
    note:
      `${mine}; ${binding.used} of ${binding.room} in use (${binding.what}): ` +
      (free < needed
        ? `only ${free} free, so this process will wait on refusals when its pools fill`
        : `room for ${more} more process${more === 1 ? "" : "es"} like this one`),
  };
}

/** Reads the server's connection facts (one query); null where the server will not say (a pooler's console). */
export async function readConnectionFacts(
  dataSource: DataSource,
  url: string,
): Promise<ConnectionFacts | null> {
  try {
    const [row]: {
      max: number;
      reserved: number;
      role_limit: number;
      superuser: boolean;
      in_use: number;
      role_in_use: number;
      port: number | null;
    }[] = await dataSource.query(
      `SELECT current_setting('max_connections')::int AS max,
              current_setting('superuser_reserved_connections')::int AS reserved,
              r.rolconnlimit AS role_limit, r.rolsuper AS superuser,
              (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS in_use,
              (SELECT count(*)::int FROM pg_stat_activity WHERE usename = current_user AND backend_type = 'client backend') AS role_in_use,
              inet_server_port() AS port
       FROM pg_roles r WHERE r.rolname = current_user`,
    );
    if (!row) return null;
    const urlPort = Number(new URL(url).port || 5432);
    return {
      maxConnections: row.max,
      superuserReserved: row.reserved,
      roleLimit: row.role_limit,
      superuser: row.superuser,
      inUse: row.in_use,
      roleInUse: row.role_in_use,
      // A Unix socket has no port: nothing in between.
      behindPooler: row.port !== null && row.port !== urlPort,
    };
  } catch {
    return null;
  }
}
