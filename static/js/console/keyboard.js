/* Single-key shortcuts, ignored while typing or with a modifier held. */

const isTyping = (target) => {
  if (!target?.tagName) return false;
  const tag = target.tagName.toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
};

/** `keys` maps a key to a handler; a handler returning false lets the key through. */
export const onShortcuts = (keys) => {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target)) return;
    const handler = keys[event.key];
    if (!handler) return;
    if (handler(event) === false) return;
    event.preventDefault();
  });
};

/** Focuses (and scrolls to, opening its <details>) the element `id`; false if absent. */
export const focusOn = (id) => {
  const element = document.getElementById(id);
  if (!element) return false;
  const details = element.closest("details");
  if (details) details.open = true;
  element.focus();
  element.scrollIntoView({ block: "center" });
  return true;
};
