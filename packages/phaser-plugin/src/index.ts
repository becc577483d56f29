/**
 * @rtool/phaser-plugin: model-driven characters and voice/text commands in a Phaser scene,
 * through an rtool-server. `RtoolPlugin` is the Phaser plugin; `AgentClient` and the modules
 * below it have no Phaser dependency.
 * @packageDocumentation
 */
export * from "./headless";
export { RtoolGlobalPlugin, RtoolPlugin } from "./plugin";
export { RTOOL_OPTIONS_KEY, type RtoolApi, type RtoolPluginOptions } from "./plugin-core";
