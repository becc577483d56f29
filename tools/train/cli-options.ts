/**
 * Flag checking shared by the rt-tiny command-line tools (`build-data.ts`, `eval-tiny.ts`) and the
 * benches that read their flags by name (`bench/tiny.ts`, `bench/in-page.ts`, ...).
 */

/**
 * Throws on a `--flag` that is not in `known`. Each tool reads its flags by name and falls back
 * to a default for any it does not find, so a mistyped flag would otherwise run with the
 * default (another split, another corpus) and its output would look like the result asked for.
 */
export function refuseUnknownOptions(known: readonly string[], argv = process.argv.slice(2)): void {
  for (const arg of argv) {
    if (arg.startsWith("--") && !known.includes(arg.slice(2)))
      throw new Error(`unknown option ${arg}; known: ${known.map((o) => `--${o}`).join(" ")}`);
  }
}
