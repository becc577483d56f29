/**
 * What the request says, read once per decode for the heads' nudges: its user turn, its command
 * and the command's order as copy sources (`copy-bias.ts`), and for each head's constraint the
 * values the order says for it (`name-parts.ts`, `said-values.ts`, `said-times.ts`) and the ones
 * it gives other parameters (`value-claims.ts`).
 */
import { CopySource, commandOf, userTurn } from "../copy-bias";
import type { TextConstraint } from "../head-text";
import { orderOf, saidShares } from "../name-parts";
import { nearWordsOf } from "../near-words";
import { datesSaidIn, timesSaidIn } from "../said-times";
import { saidValues } from "../said-values";
import type { HeadForksInput } from "./types";
import type { ValueExcluding } from "./value-claims";

/**
 * The command of a user turn (`commandOf`) with the misspelt names of its order read as the turn
 * spells them above it (`nearWordsOf`: "raxchai" under a roster holding `Riaxchai`).
 */
function readCommand(turn: string): string {
  const command = commandOf(turn);
  const order = orderOf(command);
  const at = command.lastIndexOf(order);
  if (order === "" || at < 0) return command;
  const above = turn.slice(0, turn.length - command.length + at);
  return command.slice(0, at) + nearWordsOf(order, above) + command.slice(at + order.length);
}

/** The request of one decode as its heads' nudges read it; everything is found when first asked. */
export class RequestReading {
  private copySources: { turn: CopySource; command: CopySource; order: string } | null = null;
  /** What {@link saidFor} found, by constraint. */
  private readonly saidByConstraint = new Map<TextConstraint, ReadonlyMap<string, number>>();
  /** What {@link othersFor} found, by constraint. */
  private readonly othersByConstraint = new Map<TextConstraint, ReadonlyMap<string, number>>();

  constructor(private readonly input: Pick<HeadForksInput, "vocab" | "promptIds">) {}

  /**
   * The request's user turn and its command as copy sources, and the command's order (its last
   * line), read from the prompt when first asked.
   */
  sources(): { turn: CopySource; command: CopySource; order: string } {
    if (!this.copySources) {
      const { vocab, promptIds } = this.input;
      const turn = userTurn(vocab.vocab.decode(promptIds!));
      const command = readCommand(turn);
      this.copySources = {
        turn: new CopySource(turn, vocab),
        command: new CopySource(command, vocab),
        order: orderOf(command),
      };
    }
    return this.copySources;
  }

  /**
   * The values `constraint` allows that the order says, with their shares (see `name-parts.ts`
   * and `said-values.ts`), found once per constraint.
   */
  saidFor(constraint: TextConstraint): ReadonlyMap<string, number> {
    let said = this.saidByConstraint.get(constraint);
    if (!said) {
      const { order } = this.sources();
      if (constraint.choices) said = saidShares(constraint.choices, order);
      else if (constraint.parameters) said = saidValues(constraint.parameters, order);
      else said = new Map();
      if (constraint.format) {
        const { kind } = constraint.format;
        const values =
          kind === "time"
            ? timesSaidIn(order)
            : datesSaidIn(order, this.sources().turn.text, constraint.format);
        if (values.length > 0) said = new Map([...said, ...values.map((v) => [v, 1] as const)]);
      }
      this.saidByConstraint.set(constraint, said);
    }
    return said;
  }

  /** Values the order gives the chosen tool's other parameters by name and not this head's, found once per constraint. */
  othersFor(constraint: TextConstraint): ReadonlyMap<string, number> {
    let others = this.othersByConstraint.get(constraint);
    if (!others) {
      const { order } = this.sources();
      const said = this.saidFor(constraint);
      const found = new Map<string, number>();
      others = found;
      if (constraint.otherParameters && constraint.parameters)
        for (const [value, share] of saidValues(constraint.otherParameters, order))
          if (!said.has(value)) found.set(value, share);
      for (const value of (constraint as Partial<ValueExcluding>).excludedValues ?? []) found.set(value, 1);
      this.othersByConstraint.set(constraint, others);
    }
    return others;
  }
}
