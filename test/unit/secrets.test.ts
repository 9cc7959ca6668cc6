import { REDACTED, registerSecret, scrubSecrets, storableText } from "../../src/common/secrets";

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
