/** Who a key is, least to most: each role can do everything the roles before it can. No imports: the CLI's help reads it. */
export const ROLES = ["viewer", "reviewer", "runner", "admin"] as const;
export type Role = (typeof ROLES)[number];
