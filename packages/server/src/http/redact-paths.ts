/**
 * File paths out of text a client sees: `/health` and 503s tell what went wrong with the model
 * without telling a visitor where the server keeps its files (or whose home directory it is).
 */
const URL = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`]+)/i;

/** A path with at least one separator: absolute, home-relative, drive-lettered or relative. */
const PATH = /(?:[A-Za-z]:|~|[^\s"'`()[\]{},;:\\/]+)?(?:[\\/][^\s"'`()[\]{},;:\\/]+)+[\\/]?/g;

/**
 * `text` with every absolute or home-relative path replaced by its last part.
 *
 * @example
 * ```ts
 * redactPaths("/home/ana/models/rt-tiny/config.json: not valid JSON"); // "config.json: not valid JSON"
 * ```
 */
export function redactPaths(text: string): string {
  // URLs (`http://gpu-1:8000/v1`) are addresses to reach, not files: the odd parts, kept.
  return text
    .split(URL)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            PATH,
            (path) =>
              path
                .split(/[\\/]+/)
                .filter(Boolean)
                .pop() ?? path,
          ),
    )
    .join("");
}
