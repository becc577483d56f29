/**
 * A small typed event emitter, so the client has no dependency on Phaser's (the plugin forwards
 * nothing: scenes subscribe with `this.rtool.on(...)`). A throwing listener does not stop the
 * others; its error is reported to `onListenerError`.
 */

/** Listener of one event. */
export type Listener<T> = (payload: T) => void;

/**
 * Typed emitter over an event map.
 *
 * @example
 * const events = new TypedEvents<{ ping: number }>();
 * const off = events.on("ping", (n) => console.log(n));
 * events.emit("ping", 1);
 * off();
 */
export class TypedEvents<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => this.off(event, listener);
  }

  /** Subscribes for the next emission only. */
  once<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  /** Unsubscribes. */
  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.listeners.get(event)?.delete(listener as Listener<never>);
  }

  /** Calls every listener of `event` in subscription order. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  /** Drops every listener. */
  clear(): void {
    this.listeners.clear();
  }
}
