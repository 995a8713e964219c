/** Markdown's special characters in text that is not ours, escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>|~])/g, '\\$1');
}
