/**
 * A 6-axis robot arm abstracted as its tool tip: position, orientation and a gripper, over a
 * table at z = 0 with parts on it and a tray to put them in. The tools are robotic_arm.json's.
 *
 * Rules (each refusal is a typed rejection, never a clamp):
 * - reach: a target farther than `reachMm` from the base origin is `unreachable`; a target below
 *   the table (z < 0), inside the base column or inside the tray is a `collision`.
 * - motion: `move_to` takes distance / speed (slow 100, normal 250, fast 500 mm/s) and completes
 *   over `step(dt)`; a new `move_to` or `home` preempts a running move from where the tip is.
 *   `grip`, `release` and `rotate` need the arm at rest (`in_motion` otherwise).
 * - grip: force must be in (0, maxForceN]; a part must lie within `gripToleranceMm` of the tip.
 *   A force below the part's minimum lets it slip (gripper closed, nothing held, "slipped"); a
 *   force above the part's maximum crushes it (it is held, marked crushed, "crushed" event).
 * - release: lets go of the held part; above the tray it lands in the tray (its position becomes
 *   the tray's), elsewhere it falls to the table under the tip. With nothing held and the gripper
 *   already open it is refused (`nothing_held`); a closed empty gripper just opens.
 * - home: opens the gripper (releasing any held part where the tip is), then moves to
 *   (0, 0, 500) at normal speed.
 */
import { dispatchCall, type ValidArgs } from "./call-dispatch";
import { scenarioWorld } from "./scenario-world";
import { scenarioTools } from "./scenarios";
import { type ApplyResult, accept, reject, type ToolCall, type World, type WorldEvent } from "./world";

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export type ArmSpeed = "slow" | "normal" | "fast";
export type ArmAxis = "roll" | "pitch" | "yaw";

/** Grip force windows in newtons for the scenario's light / medium / heavy parts. */
export const PART_FORCE_WINDOWS = {
  light: { minForceN: 5, maxForceN: 30 },
  medium: { minForceN: 30, maxForceN: 80 },
  heavy: { minForceN: 80, maxForceN: Number.POSITIVE_INFINITY },
} as const;

export type PartClass = keyof typeof PART_FORCE_WINDOWS;

/** A part on the table. `z` is its grip point above the table when it rests there. */
export interface ArmObjectSpec {
  name: string;
  x: number;
  y: number;
  z: number;
  /** Sets the force window from {@link PART_FORCE_WINDOWS}; default "medium". */
  part?: PartClass;
  minForceN?: number;
  maxForceN?: number;
}

export interface ArmOptions {
  /** Parts on the table; default one medium "red gear" at (300, 150, 50). */
  objects?: ArmObjectSpec[];
  /** Tray position (its rim height is z) and radius; default (600, 0, 80), radius 100 mm. */
  tray?: Vec3 & { radius?: number };
  /** Where the tip starts; default home (0, 0, 500). */
  tip?: Vec3;
  reachMm?: number;
  speedsMmPerS?: Record<ArmSpeed, number>;
  gripToleranceMm?: number;
  maxForceN?: number;
}

export interface ArmObjectState {
  name: string;
  x: number;
  y: number;
  z: number;
  location: "table" | "tray" | "gripper";
  crushed: boolean;
}

export interface ArmMotion {
  from: Vec3;
  to: Vec3;
  speed: ArmSpeed;
  durationS: number;
  elapsedS: number;
  progress: number;
}

export interface ArmState {
  t: number;
  tip: Vec3;
  orientation: Record<ArmAxis, number>;
  gripper: "open" | "closed";
  gripForceN: number | null;
  holding: string | null;
  objects: ArmObjectState[];
  tray: Vec3 & { radius: number };
  motion: ArmMotion | null;
}

export type ArmWorld = World<ArmState>;

/** The home pose's tip position. */
export const ARM_HOME: Readonly<Vec3> = { x: 0, y: 0, z: 500 };

/** The base column the tip may not enter: radius and height in mm around the origin. */
const BASE_COLUMN = { radiusMm: 100, heightMm: 200 };

interface Part extends ArmObjectState {
  restZ: number;
  minForceN: number;
  maxForceN: number;
}

/**
 * Creates a robot arm world.
 *
 * @example
 * const arm = createArm();
 * arm.apply({ function: "move_to", args: { x: 300, y: 150, z: 50, speed: "fast" } });
 * arm.step(2);
 * arm.apply({ function: "grip", args: { force: 50 } });
 * arm.state().holding; // "red gear"
 */
export function createArm(options: ArmOptions = {}): ArmWorld {
  const tools = scenarioTools("robotic_arm");
  const reachMm = options.reachMm ?? 900;
  const speeds = options.speedsMmPerS ?? { slow: 100, normal: 250, fast: 500 };
  const toleranceMm = options.gripToleranceMm ?? 20;
  const maxForceN = options.maxForceN ?? 150;
  const tray = { radius: 100, ...(options.tray ?? { x: 600, y: 0, z: 80 }) };
  const specs = options.objects ?? [{ name: "red gear", x: 300, y: 150, z: 50, part: "medium" }];
  const parts: Part[] = specs.map((spec) => {
    const window = PART_FORCE_WINDOWS[spec.part ?? "medium"];
    return {
      name: spec.name,
      x: spec.x,
      y: spec.y,
      z: spec.z,
      restZ: spec.z,
      location: "table",
      crushed: false,
      minForceN: spec.minForceN ?? window.minForceN,
      maxForceN: spec.maxForceN ?? window.maxForceN,
    };
  });
  let t = 0;
  let tip: Vec3 = { ...(options.tip ?? ARM_HOME) };
  const orientation: Record<ArmAxis, number> = { roll: 0, pitch: 0, yaw: 0 };
  let gripper: "open" | "closed" = "open";
  let gripForceN: number | null = null;
  let held: Part | null = null;
  let motion: ArmMotion | null = null;
  const calls: string[] = [];

  const event = (type: string, detail?: Record<string, unknown>): WorldEvent =>
    detail ? { t, type, detail } : { t, type };

  const aboveTray = (p: Vec3): boolean => Math.hypot(p.x - tray.x, p.y - tray.y) <= tray.radius;

  function checkTarget(target: Vec3): ApplyResult | null {
    const distance = Math.hypot(target.x, target.y, target.z);
    if (distance > reachMm) {
      return reject(
        "unreachable",
        `(${fmt(target)}) is ${Math.round(distance)} mm from the base; reach is ${reachMm} mm`,
      );
    }
    if (target.z < 0) return reject("collision", `z = ${target.z} is below the table (z = 0)`, "z");
    if (Math.hypot(target.x, target.y) < BASE_COLUMN.radiusMm && target.z < BASE_COLUMN.heightMm) {
      return reject("collision", `(${fmt(target)}) is inside the arm's base column`);
    }
    if (aboveTray(target) && target.z < tray.z) {
      return reject("collision", `(${fmt(target)}) is inside the tray; its rim is at z = ${tray.z}`, "z");
    }
    return null;
  }

  function startMove(target: Vec3, speed: ArmSpeed): WorldEvent[] {
    const durationS = distance(tip, target) / speeds[speed];
    const preempted = motion !== null;
    motion = { from: { ...tip }, to: { ...target }, speed, durationS, elapsedS: 0, progress: 0 };
    const started = event("move_started", { to: { ...target }, speed, durationS, preempted });
    if (durationS === 0) {
      motion = null;
      return [started, event("arrived", { at: { ...tip } })];
    }
    return [started];
  }

  function letGo(): WorldEvent[] {
    if (!held) {
      gripper = "open";
      gripForceN = null;
      return [event("opened")];
    }
    const part = held;
    held = null;
    gripper = "open";
    gripForceN = null;
    if (aboveTray(tip)) {
      Object.assign(part, { x: tray.x, y: tray.y, z: tray.z, location: "tray" });
      return [event("released", { object: part.name, into: "tray" })];
    }
    const fallMm = tip.z - part.restZ;
    Object.assign(part, { x: tip.x, y: tip.y, z: part.restZ, location: "table" });
    return [event("released", { object: part.name, into: "table", fallMm })];
  }

  const atRest = (what: string): ApplyResult | null =>
    motion ? reject("in_motion", `cannot ${what} while the arm is moving; step until it arrives`) : null;

  const handlers = {
    move_to(args: ValidArgs): ApplyResult {
      const target = { x: args.x as number, y: args.y as number, z: args.z as number };
      const refused = checkTarget(target);
      if (refused) return refused;
      return accept(startMove(target, (args.speed as ArmSpeed | undefined) ?? "normal"));
    },
    grip(args: ValidArgs): ApplyResult {
      const force = args.force as number;
      const busy = atRest("grip");
      if (busy) return busy;
      if (force <= 0 || force > maxForceN) {
        return reject("out_of_range", `grip force must be in (0, ${maxForceN}] N, got ${force}`, "force");
      }
      if (held) return reject("already_holding", `already holding the ${held.name}; release it first`);
      const part = nearestPart(parts, tip, toleranceMm);
      if (!part)
        return reject("nothing_to_grip", `no part within ${toleranceMm} mm of the tip at (${fmt(tip)})`);
      gripper = "closed";
      gripForceN = force;
      if (force < part.minForceN) {
        return accept([event("slipped", { object: part.name, forceN: force, neededN: part.minForceN })]);
      }
      held = part;
      part.location = "gripper";
      const events = [event("gripped", { object: part.name, forceN: force })];
      if (force > part.maxForceN) {
        part.crushed = true;
        events.push(event("crushed", { object: part.name, forceN: force, maxForceN: part.maxForceN }));
      }
      return accept(events);
    },
    release(): ApplyResult {
      const busy = atRest("release");
      if (busy) return busy;
      if (!held && gripper === "open") return reject("nothing_held", "the gripper is open and holds nothing");
      return accept(letGo());
    },
    rotate(args: ValidArgs): ApplyResult {
      const axis = args.axis as ArmAxis;
      const angle = args.angle as number;
      const busy = atRest("rotate");
      if (busy) return busy;
      if (angle < -180 || angle > 180) {
        return reject("out_of_range", `rotate angle must be in -180..180 degrees, got ${angle}`, "angle");
      }
      orientation[axis] = wrapDegrees(orientation[axis] + angle);
      return accept([event("rotated", { axis, by: angle, now: orientation[axis] })]);
    },
    home(): ApplyResult {
      const events = held || gripper === "closed" ? letGo() : [];
      return accept([...events, ...startMove(ARM_HOME, "normal")]);
    },
  };

  function advance(dt: number): WorldEvent[] {
    if (!motion) {
      t += dt;
      return [];
    }
    const remaining = motion.durationS - motion.elapsedS;
    const used = Math.min(dt, remaining);
    motion.elapsedS += used;
    motion.progress = Math.min(1, motion.elapsedS / motion.durationS);
    tip = lerp(motion.from, motion.to, motion.progress);
    t += used;
    const events: WorldEvent[] = [];
    if (motion.progress >= 1) {
      tip = { ...motion.to };
      motion = null;
      events.push(event("arrived", { at: { ...tip } }));
    }
    if (held) Object.assign(held, tip);
    t += dt - used;
    return events;
  }

  function tipLine(): string {
    const hand = held ? `holding the ${held.name}` : `gripper ${gripper}`;
    if (motion) {
      return `Arm moving to (${fmt(motion.to)}), ${Math.round(motion.progress * 100)}% done, ${hand}`;
    }
    const place =
      distance(tip, ARM_HOME) < 1
        ? `at home (${fmt(tip)})`
        : (partPlace(nearestPart(parts, tip, toleranceMm)) ??
          (aboveTray(tip) ? `above the tray (${fmt(tip)})` : `at (${fmt(tip)})`));
    return `Arm ${place}, ${hand}`;
  }

  function partsLine(): string {
    const listed = parts.map((part) => {
      const name = part.crushed ? `${part.name} (crushed)` : part.name;
      if (part.location === "gripper") return `${name} in the gripper`;
      if (part.location === "tray") return `${name} in the tray`;
      return `${name} at (${fmt(part)})`;
    });
    // "Part:" even for several parts, as the scenario example and the training data write it.
    return `Part: ${[...listed, `tray at (${fmt(tray)})`].join(", ")}`;
  }

  return {
    ...scenarioWorld("robotic_arm", tools, () => [tipLine(), partsLine()], advance),
    apply: (call: ToolCall) => dispatchCall(tools, handlers, call, calls),
    history: () => [...calls],
    state: (): ArmState => ({
      t,
      tip: { ...tip },
      orientation: { ...orientation },
      gripper,
      gripForceN,
      holding: held?.name ?? null,
      objects: parts.map(({ name, x, y, z, location, crushed }) => ({ name, x, y, z, location, crushed })),
      tray: { ...tray },
      motion: motion ? { ...motion, from: { ...motion.from }, to: { ...motion.to } } : null,
    }),
  };
}

function partPlace(part: Part | null): string | null {
  return part && part.location !== "gripper" ? `above the ${part.name}` : null;
}

function nearestPart(parts: Part[], tip: Vec3, toleranceMm: number): Part | null {
  let best: Part | null = null;
  for (const part of parts) {
    if (part.location === "gripper") continue;
    const d = distance(part, tip);
    if (d <= toleranceMm && (!best || d < distance(best, tip))) best = part;
  }
  return best;
}

function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

function lerp(a: Vec3, b: Vec3, f: number): Vec3 {
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, z: a.z + (b.z - a.z) * f };
}

/** Wraps an angle into (-180, 180]. */
function wrapDegrees(angle: number): number {
  const wrapped = ((((angle + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 ? 180 : wrapped;
}

function fmt(p: Vec3): string {
  return `${Math.round(p.x)},${Math.round(p.y)},${Math.round(p.z)}`;
}
