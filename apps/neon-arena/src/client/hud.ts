/**
 * The DOM HUD around the game canvas: scene menu, server status, the command box (typed, or
 * spoken through the Web Speech API where the browser has it), the last player call with its
 * heads, heads of requests as they stream in, per-agent latency and achieved Hz, and a feed of
 * recent calls. Test hooks: `data-testid="command"` and `data-testid="last-call"`.
 */
import { type AgentFigures, formatCall, type LoggedCall } from "./call-log";

/** The scenes the menu offers. */
export type SceneKey = "arena" | "pong" | "flappy";

export const SCENE_TITLES: Record<SceneKey, string> = {
  arena: "Neon Arena",
  pong: "Pong",
  flappy: "Flappy Bird",
};

/** What the HUD asks of the app. */
export interface HudActions {
  command(text: string): void;
  switchScene(key: SceneKey): void;
}

interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onend: (() => void) | null;
  start(): void;
}

type SpeechRecognitionCtor = new () => SpeechRecognitionLike;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Builds the HUD into `root` (the page's `#hud`) and the menu into `bar` (`#bar`). */
export class Hud {
  private readonly input: HTMLInputElement;
  private readonly lastCall: HTMLElement;
  private readonly liveHeads: HTMLElement;
  private readonly agentsTable: HTMLElement;
  private readonly feed: HTMLElement;
  private readonly status: HTMLElement;
  private readonly hint: HTMLElement;
  private readonly sceneButtons = new Map<SceneKey, HTMLButtonElement>();
  private liveAgent = "";
  private liveDone = true;

  constructor(bar: HTMLElement, root: HTMLElement, actions: HudActions) {
    bar.append(element("h1", {}, "NEON ARENA"));
    const nav = element("nav");
    for (const key of Object.keys(SCENE_TITLES) as SceneKey[]) {
      const button = element("button", { "data-testid": `scene-${key}`, type: "button" }, SCENE_TITLES[key]);
      button.addEventListener("click", () => actions.switchScene(key));
      this.sceneButtons.set(key, button);
      nav.append(button);
    }
    bar.append(nav);
    this.status = element(
      "span",
      { class: "status connecting", "data-testid": "server-status" },
      "connecting…",
    );
    bar.append(this.status);

    const form = element("form", { class: "command" });
    this.input = element("input", {
      "data-testid": "command",
      autocomplete: "off",
      placeholder: "Amiya use your skill",
      "aria-label": "command",
    });
    form.append(this.input, element("button", { type: "submit" }, "Send"));
    const Recognition = speechRecognition();
    if (Recognition) {
      const mic = element("button", { type: "button", class: "mic", title: "speak a command" }, "mic");
      mic.addEventListener("click", () => {
        const recognition = new Recognition();
        recognition.lang = navigator.language || "en-US";
        recognition.interimResults = false;
        recognition.onresult = (event) => {
          const transcript = event.results[0]?.[0]?.transcript?.trim();
          if (transcript) {
            this.input.value = transcript;
            actions.command(transcript);
          }
        };
        recognition.onend = () => mic.classList.remove("listening");
        mic.classList.add("listening");
        recognition.start();
      });
      form.append(mic);
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text.length === 0) return;
      actions.command(text);
      this.input.value = "";
    });
    this.hint = element("p", { class: "hint" });
    this.lastCall = element("div", { class: "last-call", "data-testid": "last-call" }, "no command yet");
    this.liveHeads = element("div", { class: "live-heads", "data-testid": "live-heads" });
    this.agentsTable = element("table", { class: "agents", "data-testid": "agents" });
    this.feed = element("ol", { class: "feed", "data-testid": "feed" });
    root.append(
      form,
      this.hint,
      element("h2", {}, "Last command"),
      this.lastCall,
      element("h2", {}, "Heads as they arrive"),
      this.liveHeads,
      element("h2", {}, "Agents"),
      this.agentsTable,
      element("h2", {}, "Calls"),
      this.feed,
    );
  }

  /** Marks the active scene and shows its example commands. */
  setScene(key: SceneKey, hint: string): void {
    for (const [name, button] of this.sceneButtons) button.classList.toggle("active", name === key);
    this.hint.textContent = hint;
    this.lastCall.textContent = "no command yet";
    this.liveHeads.textContent = "";
    this.feed.textContent = "";
  }

  setStatus(status: string, detail: string): void {
    this.status.className = `status ${status}`;
    this.status.textContent = detail;
  }

  /** Shows a streamed head of `agent`'s request in flight. */
  showHead(agent: string, head: string, text: string): void {
    if (agent !== this.liveAgent || this.liveDone) {
      this.liveAgent = agent;
      this.liveDone = false;
      this.liveHeads.textContent = "";
      this.liveHeads.append(element("span", { class: "agent" }, agent));
    }
    const chip = element("span", { class: "head" });
    chip.append(element("b", {}, `<${head}>`), document.createTextNode(` ${text}`));
    this.liveHeads.append(chip);
  }

  /** The call of `agent`'s request arrived: its next head starts a fresh row. */
  endRequest(agent: string): void {
    if (agent === this.liveAgent) this.liveDone = true;
  }

  /** Shows a player command's outcome with its heads. */
  showCommandCall(call: LoggedCall): void {
    this.lastCall.textContent = "";
    this.lastCall.className = `last-call ${call.accepted ? "ok" : "refused"}`;
    this.lastCall.dataset.function = call.function ?? "";
    this.lastCall.append(element("div", { class: "call" }, formatCall(call.function, call.args)));
    this.lastCall.append(element("div", { class: "query" }, `“${call.query}”`));
    const heads = element("div", { class: "heads" });
    for (const [head, text] of Object.entries(call.heads)) {
      const chip = element("span", { class: "head" });
      chip.append(element("b", {}, `<${head}>`), document.createTextNode(` ${text}`));
      heads.append(chip);
    }
    this.lastCall.append(heads);
    const latency = call.latencyMs === null ? "" : `${call.latencyMs.toFixed(0)} ms`;
    this.lastCall.append(
      element("div", { class: "meta" }, call.accepted ? latency : `refused: ${call.reason ?? ""} ${latency}`),
    );
  }

  /** Adds a call to the feed (newest on top, 14 kept). */
  addToFeed(call: LoggedCall): void {
    const item = element("li", { class: call.accepted ? "ok" : "refused" });
    const text =
      call.function === null && call.reason
        ? `error: ${call.reason.slice(0, 60)}`
        : formatCall(call.function, call.args);
    item.append(
      element("span", { class: "agent" }, call.agent),
      element("span", { class: "call", title: call.reason ?? "" }, text),
      element("span", { class: "ms" }, call.latencyMs === null ? "" : `${call.latencyMs.toFixed(0)} ms`),
    );
    this.feed.prepend(item);
    while (this.feed.childElementCount > 14) this.feed.lastElementChild?.remove();
  }

  /** Redraws the per-agent table. */
  showAgents(agents: Record<string, AgentFigures & { targetHz: number }>): void {
    this.agentsTable.textContent = "";
    const head = element("tr");
    for (const title of ["agent", "calls", "refused", "Hz", "target", "latency"])
      head.append(element("th", {}, title));
    this.agentsTable.append(head);
    for (const [name, figures] of Object.entries(agents)) {
      const row = element("tr", { "data-agent": name });
      row.append(
        element("td", {}, name),
        element("td", {}, String(figures.calls)),
        element("td", {}, String(figures.rejected)),
        element("td", { class: "hz" }, figures.achievedHz.toFixed(1)),
        element("td", {}, figures.targetHz > 0 ? String(figures.targetHz) : "cmd"),
        element("td", {}, figures.lastLatencyMs === null ? "–" : `${figures.lastLatencyMs.toFixed(0)} ms`),
      );
      this.agentsTable.append(row);
    }
  }
}

function speechRecognition(): SpeechRecognitionCtor | null {
  const scope = window as unknown as {
    SpeechRecognition?: SpeechRecognitionCtor;
    webkitSpeechRecognition?: SpeechRecognitionCtor;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition ?? null;
}
