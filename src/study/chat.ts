/** One message of a prompt, as every provider takes it. */
export interface ChatMessage {
  role: "system" | "user";
  content: string;
}
