/** GitLab's Sanitize.clean + CGI.unescapeHTML on label and milestone titles and descriptions: tags go, entities decode. */
export function sanitizeText(value: string): string {
  return value
    .replace(/<[^>]*>/g, "")
    .replace(/&(lt|gt|quot|#39|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", amp: "&" })[e]!);
}
