import {
  REDACTED,
  registerSecret,
  scrubConfiguredSecrets,
  scrubSecrets,
  storableText,
} from "../../../src/common/secrets";

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

describe("the forms a key is echoed in that only decoding finds", () => {
  const key = "sk-proj-Tm4q-Wz81-xKp0Rn7Ys2";
  registerSecret(key);
  const short = "lab-Qw3e-Rt5y-Ui7o";
  registerSecret(short);
  const percentEscaped = (text: string, chars: string, hexCase: "upper" | "lower") =>
    [...text]
      .map((c) =>
        chars.includes(c)
          ? `%${c.charCodeAt(0).toString(16)[hexCase === "upper" ? "toUpperCase" : "toLowerCase"]()}`
          : c,
      )
      .join("");
  it.each([
    ["%2D-encoded after Bearer%20", `Authorization: Bearer%20${percentEscaped(key, "-", "upper")}`, key],
    ["lower-case %2d", `?token=${percentEscaped(key, "-", "lower")}&x=1`, key],
    [
      "every other character escaped",
      `k=${[...key].map((c, i) => (i % 2 ? percentEscaped(c, c, "upper") : c)).join("")}`,
      key,
    ],
    ["without its sk- prefix", `key ${key.replace(/^sk-proj-/, "")} refused`, key],
    ["half of a short key", `ends in ${short.slice(short.length - Math.ceil(short.length / 2))}.`, short],
    ["the other half of a short key", `starts ${short.slice(0, Math.ceil(short.length / 2))}…`, short],
    ["HTML decimal references", `<p>${[...key].map((c) => `&#${c.charCodeAt(0)};`).join("")}</p>`, key],
    ["HTML hex references for the dashes", `<code>${key.replaceAll("-", "&#x2d;")}</code>`, key],
    ["an HTML named reference", `<code>${short.replaceAll("-", "&hyphen;")}</code>`, short],
  ])("scrubs it %s", (_name, answer, secret) => {
    const scrubbed = scrubConfiguredSecrets(answer);
    expect(scrubbed).toContain(REDACTED);
    // No run of 8 characters of the key is left, however the rest was written.
    const decoded = decodeURIComponent(
      scrubbed
        .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16)))
        .replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d)))
        .replace(/&hyphen;/g, "-"),
    );
    for (let i = 0; i + 8 <= secret.length; i += 1) expect(decoded).not.toContain(secret.slice(i, i + 8));
    expect(scrubSecrets(answer)).toContain(REDACTED);
  });

  it("keeps text that merely has escapes and entities", () => {
    const text = "50% off &amp; more: a%20b &#169; 2026, R&D, 100%";
    expect(scrubConfiguredSecrets(text)).toBe(text);
    expect(scrubSecrets(text)).toBe(text);
  });
});
