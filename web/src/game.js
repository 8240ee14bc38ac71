// The rules of Connect Four 3D for the page (docs/RULES.md): cells i = 16z + 4y + x, columns
// c = 4y + x written 0-F, 76 lines of four. The server checks every position again; this copy
// only lets the page draw stones, refuse a full column and see the end of a game at once.

export const COLUMNS = 16;
export const HEIGHT = 4;
export const COLUMN_DIGITS = "0123456789ABCDEF";

/** The 76 lines, each four cell indices, found by walking the 13 directions of the cube. */
export const LINES = (() => {
  const lines = [];
  const directions = [];
  for (let dz = -1; dz <= 1; dz++)
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        // One of each pair of opposite directions: the first non-zero component positive.
        const first = dz !== 0 ? dz : dy !== 0 ? dy : dx;
        if (first > 0) directions.push([dx, dy, dz]);
      }
  const inside = (v) => v >= 0 && v < 4;
  for (const [dx, dy, dz] of directions)
    for (let z = 0; z < 4; z++)
      for (let y = 0; y < 4; y++)
        for (let x = 0; x < 4; x++) {
          const cells = [];
          for (let k = 0; k < 4; k++) {
            const [cx, cy, cz] = [x + k * dx, y + k * dy, z + k * dz];
            if (!inside(cx) || !inside(cy) || !inside(cz)) break;
            cells.push(16 * cz + 4 * cy + cx);
          }
          if (cells.length === 4) lines.push(cells);
        }
  return lines;
})();

/** A column's digit, or -1 for a character that is none. */
export function columnOf(character) {
  return COLUMN_DIGITS.indexOf(character.toUpperCase());
}

/** Cell coordinates of index i. */
export function cellXYZ(i) {
  return { x: i & 3, y: (i >> 2) & 3, z: i >> 4 };
}

/**
 * A game from the empty board: its moves, who holds each cell, and how it ended.
 * `play` refuses a full column and any move after the end.
 */
export class Game {
  constructor() {
    this.moves = [];
    this.cells = new Array(64).fill(null); // "X", "O" or null
    this.heights = new Array(COLUMNS).fill(0);
    this.winner = null;
    this.winningLine = null;
  }

  /** The game of a move string (whitespace ignored), or an Error naming the bad move. */
  static parse(text) {
    const game = new Game();
    const moves = text.replace(/\s+/g, "");
    for (let k = 0; k < moves.length; k++) {
      const column = columnOf(moves[k]);
      if (column < 0) return new Error(`move ${k + 1} "${moves[k]}" is not a column 0-F`);
      const refused = game.refusal(column);
      if (refused) return new Error(`move ${k + 1} "${moves[k]}": ${refused}`);
      game.play(column);
    }
    return game;
  }

  get mover() {
    return this.moves.length % 2 === 0 ? "X" : "O";
  }

  get over() {
    return this.winner !== null || this.moves.length === 64;
  }

  /** Why `column` cannot be played now, or null. */
  refusal(column) {
    if (this.winner) return `the game is over (${this.winner} has won)`;
    if (this.moves.length === 64) return "the board is full";
    if (this.heights[column] >= HEIGHT) return `column ${COLUMN_DIGITS[column]} is full`;
    return null;
  }

  /** Plays `column` (it must be playable); returns the cell filled. */
  play(column) {
    const cell = 16 * this.heights[column] + column;
    const stone = this.mover;
    this.cells[cell] = stone;
    this.heights[column]++;
    this.moves.push(column);
    for (const line of LINES) {
      if (line.includes(cell) && line.every((c) => this.cells[c] === stone)) {
        this.winner = stone;
        this.winningLine = line;
        break;
      }
    }
    return cell;
  }

  /** The cell of the last move, or -1. */
  lastCell() {
    if (this.moves.length === 0) return -1;
    const column = this.moves[this.moves.length - 1];
    return 16 * (this.heights[column] - 1) + column;
  }

  toString() {
    return this.moves.map((c) => COLUMN_DIGITS[c]).join("");
  }
}
