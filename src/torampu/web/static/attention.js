// "Your turn" while the page is in the background: the tab's title says so (● あなたの番 —
// torampu) as long as it is the player's turn and the page is hidden, and goes back as soon as
// the page is seen again or the turn passes.

const MARK = "● ";

export class Attention {
  /** `isMyTurn()` tells whether the player holds the turn; `label()` the text for the title. */
  constructor(isMyTurn, label) {
    this.isMyTurn = isMyTurn;
    this.label = label;
    this.saved = null; // the title we replaced, while it is replaced
    document.addEventListener("visibilitychange", () => this.update());
  }

  /** Whether the title currently calls the player. */
  get calling() {
    return this.saved !== null;
  }

  update() {
    const call = document.hidden && this.isMyTurn();
    if (call) {
      if (this.saved === null || !document.title.startsWith(MARK)) this.saved = document.title;
      document.title = `${MARK}${this.label()} — ${this.saved}`;
    } else if (this.saved !== null) {
      if (document.title.startsWith(MARK)) document.title = this.saved;
      this.saved = null;
    }
  }
}
