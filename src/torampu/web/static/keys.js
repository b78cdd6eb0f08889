// Keyboard play: the arrow keys move between the legal cards and the action buttons of the
// play area; Enter or Space plays the focused one (they are buttons).

const CARDS = '#hand .card[data-legal="1"]:not([disabled])';
const FOCUSABLE = `${CARDS}, #actions button:not([disabled])`;

export function installKeyboard(area, isMyTurn) {
  document.addEventListener("keydown", (event) => {
    // Enter or Space on the hand itself (where the focus rests once the button pressed is
    // gone: after a bid) goes to its first card to play, as the first arrow does — it did
    // nothing, and a player bidding by keyboard was stuck at the turn to play (a fiftieth
    // review). It plays nothing: the next Enter plays the card now in focus
    if ((event.key === "Enter" || event.key === " ") && event.target?.id === "hand" && isMyTurn()) {
      const card = [...area.querySelectorAll(CARDS)].find((el) => el.offsetParent !== null);
      if (card) {
        event.preventDefault();
        card.focus();
      }
      return;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    const target = event.target;
    if (target.matches?.("input, select, textarea")) return;
    if (!area.contains(target) && !isMyTurn()) return;
    const items = [...area.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    if (!items.length) return;
    event.preventDefault();
    const at = items.indexOf(target);
    // in a table of bids (Napoleon's: a row a suit, a column a number) the arrows follow the
    // rows and columns drawn, not the buttons' order in the page (→ went down a column, and
    // 20♠ lay some forty presses from Pass: a twenty-ninth review); at its edge, on as a line
    const grid = target.closest?.(".bid-table");
    const beside = grid ? nearest(target, [...grid.querySelectorAll("button:not([disabled])")], event.key) : null;
    if (beside) {
      beside.focus();
      return;
    }
    const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
    // the first arrow goes to the hand's cards, not to the buttons drawn above it (it landed on
    // Pass, and the Enter that followed passed the turn: a second review)
    // — and with no card to play (an auction), to a button other than Pass where there is one:
    // Pass came first, and "→ then Enter", as the hand's label says, passed the auction (a
    // keyboard review)
    const cards = items.filter((el) => el.matches("#hand .card"));
    const others = items.filter((el) => !el.matches(".pass"));
    const from = cards.length ? cards : others.length ? others : items;
    const first = items.indexOf(step > 0 ? from[0] : from[from.length - 1]);
    const next = at < 0 ? first : (at + step + items.length) % items.length;
    items[next].focus();
  });
}

/** The button of `buttons` nearest `from` in the arrow `key`'s direction on the screen, in its
 * row (left, right) or column (up, down); null at the edge. */
function nearest(from, buttons, key) {
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
  };
  const a = centre(from);
  const along = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
  let best = null;
  let bestD = Infinity;
  for (const el of buttons) {
    if (el === from || el.offsetParent === null) continue;
    const b = centre(el);
    const [dx, dy] = [b.x - a.x, b.y - a.y];
    const ahead = along[0] ? dx * along[0] > a.w / 4 && Math.abs(dy) < a.h / 2 : dy * along[1] > a.h / 4 && Math.abs(dx) < a.w / 2;
    const d = Math.abs(dx) + Math.abs(dy);
    if (ahead && d < bestD) [best, bestD] = [el, d];
  }
  return best;
}
