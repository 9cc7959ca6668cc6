import { Column, Entity, PrimaryColumn } from "typeorm";

/** A token bucket shared by every worker on the database: requests or tokens per minute of one provider. */
@Entity("provider_rate_bucket")
export class ProviderRateBucket {
  @PrimaryColumn({ type: "varchar", length: 100 })
  provider: string;

  /** `requests` or `tokens`. */
  @PrimaryColumn({ type: "varchar", length: 20 })
  kind: string;

  @Column({ type: "double precision" })
  capacity: number;

  @Column({ type: "double precision" })
  available: number;

  @Column({ name: "refill_per_second", type: "double precision" })
  refillPerSecond: number;

  /** When the request a limit last held back expected its slot (for the runs' waiting reasons). */
  @Column({ name: "waiting_until", type: "timestamptz", nullable: true })
  waitingUntil: Date | null;

  @Column({ name: "updated_at", type: "timestamptz", default: () => "clock_timestamp()" })
  updatedAt: Date;
}
