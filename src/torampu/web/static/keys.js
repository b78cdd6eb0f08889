// Keyboard play: the arrow keys move between the legal cards and the action buttons of the
// play area; Enter or Space plays the focused one (they are buttons).

const FOCUSABLE = '#hand .card[data-legal="1"]:not([disabled]), #actions button:not([disabled])';

export function installKeyboard(area, isMyTurn) {
  document.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    const target = event.target;
    if (target.matches?.("input, select, textarea")) return;
    if (!area.contains(target) && !isMyTurn()) return;
    const items = [...area.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    if (!items.length) return;
    event.preventDefault();
    const at = items.indexOf(target);
    const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
    // the first arrow goes to the hand's cards, not to the buttons drawn above it (it landed on
    // Pass, and the Enter that followed passed the turn: a second review)
    const cards = items.filter((el) => el.matches("#hand .card"));
    const first = cards.length ? items.indexOf(step > 0 ? cards[0] : cards[cards.length - 1]) : step > 0 ? 0 : items.length - 1;
    const next = at < 0 ? first : (at + step + items.length) % items.length;
    items[next].focus();
  });
}
