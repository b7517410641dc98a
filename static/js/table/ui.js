// The one place the vendored libraries are imported (static/vendor/, no build step): Preact
// renders keyed components, htm gives it a JSX-like syntax in plain template strings.
import { h, render, Fragment } from "../../vendor/preact/preact.module.js";
import { useState, useEffect, useRef, useMemo, useLayoutEffect, useCallback } from "../../vendor/preact/hooks.module.js";
import htm from "../../vendor/htm/htm.module.js";

export const html = htm.bind(h);
export { h, render, Fragment, useState, useEffect, useRef, useMemo, useLayoutEffect, useCallback };

// A tiny store: the page's modules write to it, the components re-render on change.
export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...(typeof patch === "function" ? patch(state) : patch) };
      listeners.forEach((fn) => fn(state));
    },
    subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}

export function useStore(store) {
  const [state, setState] = useState(store.get());
  useEffect(() => store.subscribe(setState), [store]);
  return state;
}
