import {
  REDACTED,
  registerSecret,
  scrubConfiguredSecrets,
  scrubSecrets,
  storableText,
} from "../../src/common/secrets";

describe("secrets never leave the process", () => {
  it("scrubs a registered key wherever it appears", () => {
    registerSecret("my-very-own-key-123");
    expect(scrubSecrets('HTTP 401: {"error":"bad key my-very-own-key-123"}')).toBe(
      `HTTP 401: {"error":"bad key ${REDACTED}"}`,
    );
  });

  it("scrubs bearer tokens and OpenAI-style keys it was never told about", () => {
    expect(scrubSecrets("Authorization: Bearer abcdefghijklmnop")).not.toContain("abcdefghijklmnop");
    expect(scrubSecrets("Incorrect API key provided: sk-proj-abcdefghijkl")).not.toContain("abcdefghijkl");
    expect(scrubSecrets('{"api_key": "zzzzzzzzzz"}')).not.toContain("zzzzzzzzzz");
  });

  it("leaves ordinary text alone", () => {
    const text = "HTTP 500: the model is overloaded, try again";
    expect(scrubSecrets(text)).toBe(text);
  });

  it("makes text storable by PostgreSQL (no NUL characters)", () => {
    expect(storableText("a\u0000b")).toBe("a\uFFFDb");
    expect(storableText(null)).toBeNull();
  });
});

describe("the forms a configured key is scrubbed in", () => {
  const key = "sk-live-Zq81xLmN0pRs";
  registerSecret(key);

  it.each([0, 1, 2, 5])("finds it base64-encoded after %i other bytes, standard and URL-safe", (before) => {
    const prefix = "x".repeat(before);
    for (const encoding of ["base64", "base64url"] as const) {
      const encoded = Buffer.from(`${prefix}${key}${"!?"}`).toString(encoding);
      expect(scrubConfiguredSecrets(`echo ${encoded} end`)).toContain(REDACTED);
    }
  });

  it("finds it URL-encoded and literal, and leaves text that only looks like a key", () => {
    expect(scrubConfiguredSecrets(`?key=${encodeURIComponent(key)}`)).toBe(`?key=${REDACTED}`);
    expect(scrubConfiguredSecrets(`model ${key}`)).toBe(`model ${REDACTED}`);
    expect(scrubConfiguredSecrets("sk-notOurKeyAtAll12345")).toBe("sk-notOurKeyAtAll12345");
  });

  it("makes lone surrogates and NUL storable", () => {
    expect(storableText("a\uD800b\u0000c\uDC00")).toBe("a\uFFFDb\uFFFDc\uFFFD");
    expect(storableText("pair \uD83D\uDE00 kept")).toBe("pair \uD83D\uDE00 kept");
  });
});

describe("the forms a configured key is echoed in", () => {
  const key = "lab-key-0123456789abcdefghijKLMNOPqrstuv";
  registerSecret(key);
  const bytes = Buffer.from(key, "utf8");
  const everyByte = [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  it.each([
    ["URL-encoded, every byte, upper-case hex", everyByte.toUpperCase()],
    ["URL-encoded, every byte, lower-case hex", everyByte],
    ["hex", bytes.toString("hex")],
    ["upper case", key.toUpperCase()],
    ["reversed", [...key].reverse().join("")],
    ["spaced out", [...key].join(" ")],
    ["its first half", key.slice(0, Math.ceil(key.length / 2))],
    ["its second half", key.slice(key.length - Math.ceil(key.length / 2))],
  ])("are scrubbed from what a provider sends: %s", (_name, form) => {
    const answer = `the proxy said: ${form} (end)`;
    expect(scrubConfiguredSecrets(answer)).not.toContain(form);
    expect(scrubConfiguredSecrets(answer)).toContain(REDACTED);
  });
});
