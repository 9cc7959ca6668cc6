import { Column, Entity, PrimaryColumn } from "typeorm";

/** Who may run a piece of upkeep now, and until when (src/common/maintenance-lease.ts). */
@Entity("maintenance_lease")
export class MaintenanceLeaseRow {
  @PrimaryColumn({ type: "varchar", length: 200, primaryKeyConstraintName: "PK_maintenance_lease" })
  name: string;

  @Column({ type: "varchar", length: 200 })
  holder: string;

  @Column({ type: "timestamptz" })
  until: Date;
}
