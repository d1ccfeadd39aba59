// markdown-it-sub and markdown-it-sup ship no types: each exports one plugin that takes no options.
declare module 'markdown-it-sub' {
  import type { PluginSimple } from 'markdown-it';

  const subPlugin: PluginSimple;
  export default subPlugin;
}

declare module 'markdown-it-sup' {
  import type { PluginSimple } from 'markdown-it';

  const supPlugin: PluginSimple;
  export default supPlugin;
}
