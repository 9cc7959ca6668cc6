import { Column, Entity, Index, PrimaryColumn } from "typeorm";
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from "../graphql/deferred-types";

/**
 * A process that works on the queue (`memicl serve` with in-process workers, `memicl worker`, `memicl
 * experiment --wait`). It registers when it starts and beats every few seconds; the leases it holds live
 * as long as it beats. A worker that stops beating is dead: its row ages out and its leases are released.
 */
@ObjectType({ description: "A process working on the queue, as it last reported itself." })
@Entity("worker")
@Index("IDX_worker_last_seen", ["lastSeenAt"])
export class Worker {
  @PrimaryColumn({ type: "uuid" })
  @Field(() => ID)
  id: string;

  @Column({ type: "varchar", length: 255 })
  @Field()
  host: string;

  @Column({ type: "int" })
  @Field(() => Int)
  pid: number;

  /** `serve`, `worker` or `experiment`. */
  @Column({ type: "varchar", length: 20 })
  @Field({ description: "serve, worker or experiment" })
  role: string;

  @Column({ name: "started_at", type: "timestamptz", default: () => "clock_timestamp()" })
  @Field(() => GraphQLISODateTime)
  startedAt: Date;

  @Column({ name: "last_seen_at", type: "timestamptz", default: () => "clock_timestamp()" })
  @Field(() => GraphQLISODateTime)
  lastSeenAt: Date;

  @Column({ type: "int" })
  @Field(() => Int, { description: "Calls it makes at once." })
  concurrency: number;

  /** Names of the providers it can call (never their settings or keys). */
  @Column({ type: "text", array: true })
  @Field(() => [String], { description: "Names of the providers it can call." })
  providers: string[];

  @Column({ name: "in_flight", type: "int", default: 0 })
  @Field(() => Int, { description: "Items it was working on at its last beat." })
  inFlight: number;

  /** Runs it was working on at its last beat. */
  @Column({ name: "run_ids", type: "uuid", array: true, default: () => "'{}'" })
  @Field(() => [ID], { description: "Runs it was working on at its last beat." })
  runIds: string[];

  @Column({ name: "code_version", type: "varchar", length: 100 })
  @Field()
  codeVersion: string;
}
