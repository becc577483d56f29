/**
 * @rtool/integration: end-to-end episodes (spoken commands -> a real rtool-server on loopback ->
 * the model -> a typed call -> an @rtool/sim world), the reply checks that keep invalid calls
 * away from a world, and the reference scenarios' episodes.
 * @packageDocumentation
 */
export {
  type CallTransport,
  type Episode,
  EpisodeCallTimeoutError,
  type EpisodeResult,
  type EpisodeStep,
  type RunEpisodeOptions,
  runEpisode,
  type StateExpectation,
  type StepOutcome,
  type StepRecord,
  wireTools,
} from "./episode";
export {
  embeddedModelPresent,
  type ModelServer,
  type ModelServerOptions,
  startModelServer,
  writeRandomModel,
} from "./model-server";
export { checkReply, formatCall, type ReplyVerdict, SCHEMA_REJECTION_CODES } from "./reply-check";
export {
  type AvatarWithTimeline,
  arenaFiresWhenAligned,
  armPickAndPlace,
  avatarGreeting,
  SCENARIO_EPISODES,
  towerDefenseOrders,
} from "./scenario-episodes";
