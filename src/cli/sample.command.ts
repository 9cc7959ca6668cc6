import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { Dataset } from "../dataset/dataset.entity";
import { openForCommand } from "./open-database";

export interface SampleCommandOptions {
  dataset: string;
  seed?: number;
  instances: number;
  demonstrations: number;
  split: string;
  demonstrationSplit: string;
  shots: number[];
  cut: [number, number];
  name?: string;
  designVersion: number;
  minTargetWords: number;
}

/** `memicl sample`: draws (or finds) a study sample and prints what it holds. */
export async function runSample(config: Config, options: SampleCommandOptions): Promise<void> {
  const command = await openForCommand(config);
  const { database, services } = command;
  try {
    const dataset = await findDataset(database.dataSource.manager, options.dataset);
    const { sample, created } = await services.samples.create({
      datasetId: dataset.id,
      name: options.name,
      seed: options.seed,
      instanceCount: options.instances,
      demonstrationCount: options.demonstrations,
      instanceSplit: options.split,
      demonstrationSplit: options.demonstrationSplit,
      shotCounts: options.shots,
      cutMin: options.cut[0],
      cutMax: options.cut[1],
      designVersion: options.designVersion,
      minTargetWords: options.minTargetWords,
    });
    const [instances] = await services.samples.instanceCounts([sample.id]);
    const [demonstrations] = await services.samples.demonstrationCounts([sample.id]);
    const out = process.stdout;
    out.write(`${created ? "drew" : "found existing"} sample ${sample.id} of dataset "${dataset.name}"\n`);
    out.write(
      `seed ${sample.seed}; ${instances} instances (split ${sample.instanceSplit}), ${demonstrations} demonstrations (split ${sample.demonstrationSplit}); k = ${sample.shotCounts.join(", ")}\n`,
    );
    out.write(`content hash: ${sample.contentHash}\n`);
    for (const note of sample.notes) out.write(`note: ${note}\n`);
  } finally {
    await command.close();
  }
}

/** A dataset by id or by name. */
export async function findDataset(
  manager: import("typeorm").EntityManager,
  nameOrId: string,
): Promise<Dataset> {
  const dataset =
    (await manager.findOneBy(Dataset, { name: nameOrId })) ??
    (/^[0-9a-f-]{36}$/i.test(nameOrId) ? await manager.findOneBy(Dataset, { id: nameOrId }) : null);
  if (!dataset) throw new BadInputError(`no dataset named or with id "${nameOrId}"`);
  return dataset;
}
