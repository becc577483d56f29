/** `text` as a regular expression that matches exactly it: every character with a meaning there escaped. */
export function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
