/**
 * The sim episodes as a model-quality measure (issue 28's second acceptance point): each reference
 * scenario's multi-step task (`@rtool/integration`'s SCENARIO_EPISODES: arm pick-and-place, avatar
 * greeting, tower-defense orders, arena firing) runs through a real rtool-server on 127.0.0.1 over
 * the model being evaluated, in v1 and v2, with every step run even after a failure so that one
 * miss does not hide the rest. The commands are the episodes' own, written as a user would say
 * them; nothing here is tuned to a model.
 */
import {
  type EpisodeResult,
  runEpisode,
  SCENARIO_EPISODES,
  startModelServer,
} from "../../packages/integration/src/index";

/** One episode's outcome in one prompt format. */
export interface EpisodeReport {
  episode: string;
  format: "v1" | "v2";
  /** Every step met its expectation, in order, and the outcome holds. */
  completed: boolean;
  /** Steps whose expectation held (run to the end, a failed step does not stop the count). */
  stepsMet: number;
  steps: number;
  /** 1-based index of the first step that failed; null when none did. */
  firstFailedStep: number | null;
  /** `step: command -> call` for every step whose expectation failed. */
  misses: string[];
  /**
   * `step: command -> call` for every step, so an episode whose steps all held but whose end
   * state did not (a call that did more than its step checks, e.g. `retreat_all` for one
   * operator's retreat) can be read.
   */
  calls: string[];
}

const stepLine = (s: EpisodeResult<unknown>["steps"][number]) =>
  `${s.index} ${JSON.stringify(s.command)} -> ${s.call ?? s.outcome}`;

function report(result: EpisodeResult<unknown>, format: "v1" | "v2"): EpisodeReport {
  const missed = result.steps.filter((s) => !s.expectationMet);
  return {
    episode: result.episode,
    format,
    completed: result.completed,
    stepsMet: result.steps.length - missed.length,
    steps: result.steps.length,
    firstFailedStep: result.failedStep,
    misses: missed.map(stepLine),
    calls: result.steps.map(stepLine),
  };
}

/** Runs every scenario episode over the model in `modelDir`, v1 then v2. */
export async function runScenarioEpisodes(modelDir: string): Promise<EpisodeReport[]> {
  const served = await startModelServer(modelDir, { cache: false });
  try {
    const reports: EpisodeReport[] = [];
    for (const format of ["v1", "v2"] as const)
      for (const episode of SCENARIO_EPISODES) {
        const result = await runEpisode<unknown>(episode, served.client, {
          version: format,
          continueAfterFailure: true,
        });
        reports.push(report(result, format));
      }
    return reports;
  } finally {
    await served.close();
  }
}

/** The reports as a markdown table, then each miss. */
export function episodesMarkdown(reports: readonly EpisodeReport[]): string {
  const rows = reports.map(
    (r) =>
      `| ${r.episode} | ${r.format} | ${r.completed ? "yes" : "no"} | ${r.stepsMet}/${r.steps} | ${r.firstFailedStep ?? "-"} |`,
  );
  const done = reports.filter((r) => r.completed).length;
  const misses = reports.flatMap((r) => r.misses.map((m) => `MISS ${r.episode}/${r.format} step ${m}`));
  return [
    `### sim episodes through rtool-server (${done}/${reports.length} completed)`,
    "",
    "| episode | format | completed | steps met | first failed step |",
    "|---|---|---|---:|---:|",
    ...rows,
    ...(misses.length ? ["", ...misses] : []),
  ].join("\n");
}
