// Operation (see kernel.js) (fn): is the renderer's WebGL context alive, and what is it?
() => {
  const core = H.xb && H.xb.core;
  const renderer = core && core.renderer;
  const gl = renderer && renderer.getContext && renderer.getContext();
  if (!gl) return {alive: false, reason: 'no renderer'};
  const lost = gl.isContextLost();
  const debug = lost ? null : gl.getExtension('WEBGL_debug_renderer_info');
  return {
    alive: !lost,
    lost,
    version: lost ? null : gl.getParameter(gl.VERSION),
    renderer: debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : null,
    canvas: [renderer.domElement.width, renderer.domElement.height],
    lifecycle: core.lifecycle,
  };
}
