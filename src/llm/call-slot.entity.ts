import { Column, Entity, PrimaryColumn } from "typeorm";

/** One slot of a provider's database-wide `maxConcurrency`: free, or leased to a call until `until`. */
@Entity("provider_call_slot")
export class ProviderCallSlot {
  @PrimaryColumn({ type: "varchar", length: 100 })
  provider: string;

  @PrimaryColumn({ type: "int" })
  slot: number;

  @Column({ type: "uuid", nullable: true })
  token: string | null;

  @Column({ type: "timestamptz", nullable: true })
  until: Date | null;
}
