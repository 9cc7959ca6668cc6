import { BACKENDS } from "../../support/databases";
import { IMPORT_MUTATION } from "../../support/fixtures";
import { startTestServer, TestServer } from "../../support/server";

/** A small NLI dataset: 60 pairs, two labels. */
function pairs(): string {
  const lines = ["sentence1,sentence2,label"];
  for (let i = 0; i < 60; i += 1)
    lines.push(`The premise number ${i} is here.,Hypothesis ${i} follows.,${i % 2 ? "yes" : "no"}`);
  return `${lines.join("\n")}\n`;
}

/** A small classification dataset: 90 texts of 10-14 words over three labels, plus three too short to cut. */
function texts(): string {
  const rows = Array.from({ length: 90 }, (_, i) => ({
    text: Array.from({ length: 10 + (i % 5) }, (_, w) => `word${i}x${w}`).join(" "),
    label: ["sport", "world", "science"][i % 3],
  }));
  rows.push(
    { text: "Short.", label: "sport" },
    { text: "Two words", label: "world" },
    { text: "Tiny", label: "science" },
  );
  return `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;
}

const CREATE_SAMPLE = `
  mutation($input: CreateSampleInput!) {
    createSample(input: $input) {
      created
      sample { id seed contentHash instanceCount demonstrationCount notes exclusions { instanceId reason } shotCounts }
    }
  }`;

const RENDER = `
  query($input: RenderPromptInput!) {
    renderPrompt(input: $input) {
      messages { role content } tokenCount tokenizer templateKey templateVersion shots demonstrationInstanceIds
      sampledInstance { position initialSegment subsequentSegment label instance { id text } }
    }
  }`;

const SETTINGS = ["FULL_INFORMATION", "SEGMENT_PAIRS_AND_LABELS", "ONLY_SEGMENT_PAIRS"];

/** Prompts rendered on the first backend; the next backend must render exactly the same bytes. */
const RENDERED = new Map<string, unknown>();
function sameOnEveryBackend(name: string, messages: unknown) {
  if (RENDERED.has(name)) expect(messages).toEqual(RENDERED.get(name));
  else RENDERED.set(name, messages);
}

describe.each(BACKENDS)("study design over GraphQL (%s database)", (backend) => {
  let api: TestServer;
  let nliSample: any;
  let textSample: any;

  beforeAll(async () => {
    api = await startTestServer(backend);
    const nli = await api.gql(IMPORT_MUTATION, { input: { name: "pairs", content: pairs(), format: "csv" } });
    const cls = await api.gql(IMPORT_MUTATION, {
      input: { name: "texts", content: texts(), format: "jsonl" },
    });
    const createNli = await api.gql(CREATE_SAMPLE, {
      input: {
        datasetId: nli.data?.importDataset.dataset.id,
        seed: 11,
        instanceCount: 20,
        demonstrationCount: 30,
        shotCounts: [0, 2, 30],
      },
    });
    const createCls = await api.gql(CREATE_SAMPLE, {
      input: {
        datasetId: cls.data?.importDataset.dataset.id,
        seed: 11,
        instanceCount: 30,
        demonstrationCount: 45,
        shotCounts: [0, 3, 45],
      },
    });
    expect(createNli.errors).toBeUndefined();
    expect(createCls.errors).toBeUndefined();
    nliSample = createNli.data?.createSample.sample;
    textSample = createCls.data?.createSample.sample;
  });
  afterAll(() => api?.close());

  it("draws the requested counts and returns the same sample for the same request", async () => {
    expect(nliSample).toMatchObject({
      seed: "11",
      instanceCount: 20,
      demonstrationCount: 30,
      shotCounts: [0, 2, 30],
    });
    const again = await api.gql(CREATE_SAMPLE, {
      input: {
        datasetId: await datasetId(api, "pairs"),
        seed: 11,
        instanceCount: 20,
        demonstrationCount: 30,
        shotCounts: [0, 2, 30],
      },
    });
    expect(again.data?.createSample).toMatchObject({
      created: false,
      sample: { id: nliSample.id, contentHash: nliSample.contentHash },
    });
  });

  it("refuses a split the dataset lacks, naming the ones it has, and a sample that builds no k above 0 asked for", async () => {
    const datasetIdOfPairs = await datasetId(api, "pairs");
    const missing = await api.gql(CREATE_SAMPLE, {
      input: { datasetId: datasetIdOfPairs, seed: 1, instanceSplit: "validation", instanceCount: 5 },
    });
    expect(missing.errors?.[0]).toMatchObject({
      message:
        'dataset "pairs" has no rows in split "validation" (asked for the instances under test); its splits: "train" (60 rows). Choose one with --split / instanceSplit',
      extensions: { code: "BAD_USER_INPUT" },
    });
    // All 60 rows under test leave no demonstrations: k = 5 could never be built.
    const starved = await api.gql(CREATE_SAMPLE, {
      input: {
        datasetId: datasetIdOfPairs,
        seed: 1,
        instanceCount: 60,
        demonstrationCount: 10,
        shotCounts: [0, 5],
      },
    });
    expect(starved.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(starved.errors?.[0].message).toMatch(
      /^no prompt with k = 5 can be built: this sample would have 0 demonstration\(s\)/,
    );
    // k = 0 alone needs none.
    const zeroOnly = await api.gql(CREATE_SAMPLE, {
      input: {
        datasetId: datasetIdOfPairs,
        seed: 1,
        instanceCount: 60,
        demonstrationCount: 10,
        shotCounts: [0],
      },
    });
    expect(zeroOnly.errors).toBeUndefined();
  });

  it("reports texts too short to cut, with the reason, when sampling reaches them", async () => {
    expect(textSample.instanceCount).toBe(30);
    expect(textSample.demonstrationCount).toBe(45);
    const everything = await api.gql(CREATE_SAMPLE, {
      input: {
        datasetId: await datasetId(api, "texts"),
        seed: 3,
        instanceCount: 93,
        demonstrationCount: 0,
        shotCounts: [0],
      },
    });
    const sample = everything.data?.createSample.sample;
    expect(sample.instanceCount).toBe(90);
    expect(sample.exclusions).toHaveLength(3);
    expect(sample.exclusions.map((exclusion: any) => exclusion.reason).sort()).toEqual([
      expect.stringMatching(/^too short to cut: 1 token/),
      expect.stringMatching(/^too short to cut: 1 token/),
      expect.stringMatching(/^too short to cut: 2 token/),
    ]);
    expect(sample.notes.join("\n")).toMatch(/asked for 93, split "train" has only 90 usable row/);
  });

  it("renders every setting and k for NLI and classification, the same on every database", async () => {
    for (const [sample, shotsList] of [
      [nliSample, [0, 2]],
      [textSample, [0, 3]],
    ] as const) {
      for (const shots of shotsList) {
        for (const setting of SETTINGS) {
          const response = await api.gql(RENDER, {
            input: { sampleId: sample.id, kind: "MEMORIZATION", setting, shots },
          });
          expect(response.errors).toBeUndefined();
          const { messages, templateKey, templateVersion } = response.data!.renderPrompt;
          expect(templateVersion).toBe(2);
          expect(messages.at(-1).content.match(/SENTENCE 2: |SECOND PIECE: /g) ?? []).toHaveLength(shots);
          sameOnEveryBackend(`${templateKey} k=${shots}`, messages);
        }
        const performance = await api.gql(RENDER, {
          input: { sampleId: sample.id, kind: "PERFORMANCE", shots },
        });
        const { messages, templateKey } = performance.data!.renderPrompt;
        expect(messages.at(-1).content.match(/\nLabel: \S/g) ?? []).toHaveLength(shots);
        sameOnEveryBackend(`${templateKey} k=${shots}`, messages);
      }
    }
  });

  it("puts instruction, labels and demonstrations in a prompt only where the setting says", async () => {
    const render = async (setting: string | null, shots: number) =>
      (
        await api.gql(RENDER, {
          input: { sampleId: textSample.id, kind: setting ? "MEMORIZATION" : "PERFORMANCE", setting, shots },
        })
      ).data?.renderPrompt;
    const full = await render("FULL_INFORMATION", 45);
    // The guided instruction (template version 2) starts the one user message.
    expect(full.messages).toHaveLength(1);
    expect(full.messages[0]).toMatchObject({
      role: "user",
      content: expect.stringMatching(/^INSTRUCTION:\n.*train split of the texts dataset/),
    });
    expect(full.messages[0].content.match(/SECOND PIECE: /g)).toHaveLength(45);
    expect(
      full.messages[0].content.endsWith(`FIRST PIECE: ${full.sampledInstance.initialSegment}\nSECOND PIECE:`),
    ).toBe(true);
    const labels = await render("SEGMENT_PAIRS_AND_LABELS", 45);
    expect(labels.messages).toHaveLength(1);
    expect(labels.messages[0].content).not.toMatch(/INSTRUCTION/);
    expect(labels.messages[0].content.match(/LABEL: /g)).toHaveLength(46);
    const pairsOnly = await render("ONLY_SEGMENT_PAIRS", 45);
    expect(pairsOnly.messages[0].content).not.toMatch(/LABEL|Label|sport|world|science/);
    const performance = await render(null, 45);
    expect(
      performance.messages[1].content.endsWith(`Text: ${performance.sampledInstance.instance.text}\nLabel:`),
    ).toBe(true);
    expect(performance.tokenCount).toBeGreaterThan(labels.tokenCount / 2);
  });

  it("shows the k demonstrations in the same order in memorization and performance prompts, nested across k", async () => {
    const order = async (kind: string, setting: string | null, shots: number) =>
      (await api.gql(RENDER, { input: { sampleId: textSample.id, kind, setting, shots } })).data?.renderPrompt
        .demonstrationInstanceIds;
    const memorization = await order("MEMORIZATION", "ONLY_SEGMENT_PAIRS", 3);
    expect(await order("PERFORMANCE", null, 3)).toEqual(memorization);
    expect(await order("MEMORIZATION", "FULL_INFORMATION", 3)).toEqual(memorization);
    const all = new Set(await order("MEMORIZATION", "FULL_INFORMATION", 45));
    expect(memorization.every((id: string) => all.has(id))).toBe(true);
  });

  it("starts every prompt of a run with the same bytes up to the instance's slot (prefix caching)", async () => {
    const page = await api.gql(
      `query($id: ID!) { sample(id: $id) { instances(first: 30) { edges { node { instance { id } } } } } }`,
      {
        id: nliSample.id,
      },
    );
    const ids: string[] = page.data?.sample.instances.edges.map((edge: any) => edge.node.instance.id);
    const prompts = await Promise.all(
      ids.map(async (instanceId) => {
        const response = await api.gql(RENDER, {
          input: {
            sampleId: nliSample.id,
            instanceId,
            kind: "MEMORIZATION",
            setting: "FULL_INFORMATION",
            shots: 30,
          },
        });
        return response.data?.renderPrompt.messages as { content: string }[];
      }),
    );
    const block = prompts[0][0].content.slice(0, prompts[0][0].content.lastIndexOf("\n\nSENTENCE 1: ") + 2);
    expect(block.match(/SENTENCE 2: /g)).toHaveLength(30);
    expect(block).toMatch(/^INSTRUCTION:\n/);
    for (const messages of prompts) {
      expect(messages).toHaveLength(1);
      expect(messages[0].content.startsWith(block)).toBe(true);
    }
    expect(new Set(prompts.map((messages) => messages[0].content)).size).toBe(ids.length);
  });

  it("renders a new template version, keeps the old one, and refuses unknown placeholders", async () => {
    const key = "memorization/ONLY_SEGMENT_PAIRS/NLI";
    const created = await api.gql(
      `mutation($input: CreatePromptTemplateVersionInput!) { createPromptTemplateVersion(input: $input) { key version } }`,
      {
        input: {
          key,
          demonstration: "A: {{initial}}\nB: {{subsequent}}",
          query: "A: {{initial}}\nB:",
          note: "terse",
        },
      },
    );
    expect(created.data?.createPromptTemplateVersion).toEqual({ key, version: 3 });
    const latest = await api.gql(RENDER, {
      input: { sampleId: nliSample.id, kind: "MEMORIZATION", setting: "ONLY_SEGMENT_PAIRS", shots: 2 },
    });
    expect(latest.data?.renderPrompt).toMatchObject({
      templateVersion: 3,
      messages: [{ content: expect.stringMatching(/^A: /) }],
    });
    const first = await api.gql(RENDER, {
      input: {
        sampleId: nliSample.id,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 2,
        templateVersion: 1,
      },
    });
    expect(first.data?.renderPrompt.messages[0].content).toMatch(/^Sentence 1: /);
    const bad = await api.gql(
      `mutation($input: CreatePromptTemplateVersionInput!) { createPromptTemplateVersion(input: $input) { version } }`,
      { input: { key, demonstration: "{{initial}} {{answer}}", query: "{{initial}}" } },
    );
    expect(bad.errors?.[0]).toMatchObject({
      extensions: { code: "BAD_USER_INPUT" },
      message: expect.stringMatching(/unknown placeholder \{\{answer\}\}/),
    });
  });

  it("uses edited verbalizers and the dataset's prompt name", async () => {
    const id = await datasetId(api, "texts");
    const updated = await api.gql(
      `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { promptName labels { label verbalizer } } }`,
      {
        input: { id, promptName: "TEXTS-2024", labelVerbalizers: [{ label: "sport", verbalizer: "sports" }] },
      },
    );
    expect(updated.data?.updateDataset.labels).toContainEqual({ label: "sport", verbalizer: "sports" });
    const prompt = await api.gql(RENDER, {
      input: { sampleId: textSample.id, kind: "PERFORMANCE", shots: 0 },
    });
    expect(prompt.data?.renderPrompt.messages[0].content).toBe(
      "Classify the text into one of these labels: science, sports, world. Answer with the label only.",
    );
    const unknown = await api.gql(
      `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { id } }`,
      {
        input: { id, labelVerbalizers: [{ label: "cooking", verbalizer: "food" }] },
      },
    );
    expect(unknown.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    await api.gql(`mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { id } }`, {
      input: { id, promptName: null, labelVerbalizers: [{ label: "sport", verbalizer: "sport" }] },
    });
  });

  it("estimates the calls and tokens of a whole grid", async () => {
    const response = await api.gql(
      `query($input: EstimateGridInput!) { estimateGrid(input: $input) {
        calls promptTokens maxOutputTokens maxCostUsd tokenizer rows { kind setting shots repeats calls promptTokens } } }`,
      {
        input: {
          sampleIds: [textSample.id],
          inputPricePerMillionTokens: 10,
          outputPricePerMillionTokens: 30,
        },
      },
    );
    const estimate = response.data?.estimateGrid;
    // 3 k values x (4 memorization settings, the control included, + 1 performance run)
    expect(estimate.rows).toHaveLength(15);
    expect(estimate.calls).toBe(3 * (4 * 30 + 30 * 3));
    expect(estimate.maxOutputTokens).toBe(3 * (4 * 30 * 100 + 30 * 3 * 10));
    const k45 = estimate.rows.find(
      (row: any) => row.kind === "MEMORIZATION" && row.setting === "FULL_INFORMATION" && row.shots === 45,
    );
    const page = await api.gql(
      `query($id: ID!) { sample(id: $id) { instances(first: 30) { edges { node { instance { id } } } } } }`,
      {
        id: textSample.id,
      },
    );
    let exact = 0;
    for (const edge of page.data?.sample.instances.edges ?? []) {
      const input = {
        sampleId: textSample.id,
        instanceId: edge.node.instance.id,
        kind: "MEMORIZATION",
        setting: "FULL_INFORMATION",
        shots: 45,
      };
      exact += (await api.gql(RENDER, { input })).data?.renderPrompt.tokenCount;
    }
    // The estimate tokenizes the shared block once: within 3 tokens a prompt of the exact counts.
    expect(Math.abs(k45.promptTokens - exact)).toBeLessThanOrEqual(3 * 30);
    expect(estimate.maxCostUsd).toBeCloseTo(
      (estimate.promptTokens * 10 + estimate.maxOutputTokens * 30) / 1e6,
      6,
    );
  });

  it("refuses impossible prompts with BAD_USER_INPUT", async () => {
    const tooMany = await api.gql(RENDER, {
      input: { sampleId: nliSample.id, kind: "MEMORIZATION", setting: "FULL_INFORMATION", shots: 31 },
    });
    expect(tooMany.errors?.[0]).toMatchObject({
      extensions: { code: "BAD_USER_INPUT" },
      message: expect.stringMatching(/shots/),
    });
    const noSetting = await api.gql(RENDER, {
      input: { sampleId: nliSample.id, kind: "MEMORIZATION", shots: 2 },
    });
    expect(noSetting.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const missing = await api.gql(RENDER, {
      input: { sampleId: "00000000-0000-0000-0000-000000000000", kind: "PERFORMANCE", shots: 0 },
    });
    expect(missing.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });
});

async function datasetId(api: TestServer, name: string): Promise<string> {
  const response = await api.gql(
    `query($name: String) { datasets(filter: { nameContains: $name }) { edges { node { id name } } } }`,
    { name },
  );
  return response.data?.datasets.edges.find((edge: any) => edge.node.name === name).node.id;
}
