#!/usr/bin/env python3
"""verify_certificate.py: an independent checker of score4 proof certificates.

It checks certificates of format version 1 (docs/CERTIFICATE.md) of Connect Four 3D positions:
that the first player (X) wins the root position (claim `win`) or does not win it (claim
`hold`). It is written from docs/CERTIFICATE.md alone, with the Python 3 standard library only,
and shares no code with score4's Rust crates (neither the board, the solver, the rules nor
score4-verify): the board model and its 76 lines are built here.

Usage: python3 tools/verify_certificate.py FILE...

The files form a set (docs/CERTIFICATE.md, "Certificates in parts"). Each file is first checked
alone. A `part` leaf is an obligation: its position, with the file's claim, must be the root
position and claim of some file of the set that is valid alone; a file with `part` leaves is
accepted only when all of them are met. Several unrelated certificates without parts are a
set of tops, each checked as before.

For each file it prints `FILE: valid: X wins, N nodes` (or `X does not win`) to stdout, with
`, W win replies` appended when its `every` nodes have W > 0 replies `c!w` (the opponent plays
c, the claimant completes four with w), then `, K parts met` when it has K > 0 `part` leaves,
all met; or the first failure to stderr: `FILE: invalid: node ID (moves MOVES): REASON`, where
MOVES are the columns from the root position to the node along the first path that referenced
it (`-` for the root), or `FILE: invalid: line L: REASON`. A file valid alone with an unmet
`part` leaf fails with
`FILE: invalid: node ID (moves MOVES): part: no certificate of the set proves this position
(XBOARD OBOARD) with the claim win` (or `hold`), naming its first unmet leaf in file order.
A file without `part` leaves is reported as soon as it is checked; the others after every
file is checked. Exit status: 0 if every file is valid, 1 if any is invalid, 2 on a usage
error or a file that cannot be opened or read.

Each file is read line by line; memory is proportional to the number of node ids plus the
number of `part` leaves (and one root position per file). Lines longer than 64 KiB are
rejected. There is no bound on the number of nodes other than ids < 2^32.
"""

import re
import sys

# ---------------------------------------------------------------- the board

MAX_LINE = 64 * 1024
FULL = (1 << 64) - 1
HEX = "0123456789ABCDEF"


def build_lines():
    """The 76 lines as 64-bit masks: walk the 13 directions from every cell, keep those inside."""
    directions = [(1, 0, 0), (0, 1, 0), (0, 0, 1),
                  (1, 1, 0), (1, -1, 0), (1, 0, 1), (1, 0, -1), (0, 1, 1), (0, 1, -1),
                  (1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1)]
    lines = []
    for z in range(4):
        for y in range(4):
            for x in range(4):
                for dx, dy, dz in directions:
                    cells = [(x + k * dx, y + k * dy, z + k * dz) for k in range(4)]
                    if all(0 <= a < 4 and 0 <= b < 4 and 0 <= c < 4 for a, b, c in cells):
                        lines.append(sum(1 << (16 * c + 4 * b + a) for a, b, c in cells))
    assert len(lines) == 76 and len(set(lines)) == 76
    return lines


LINES = build_lines()
ODD_LAYERS = sum(1 << i for i in range(64) if (i // 16) % 2 == 1)


def has_four(board):
    return any(board & line == line for line in LINES)


def height(x, o, column):
    return sum(1 for z in range(4) if (x | o) >> (16 * z + column) & 1)


def play(x, o, column):
    """The position after the mover plays `column` (which must not be full)."""
    cell = 1 << (16 * height(x, o, column) + column)
    if bin(x | o).count("1") % 2 == 0:
        return x | cell, o
    return x, o | cell


# ---------------------------------------------------------------- parsing

ID_RE = re.compile(r"0|[1-9][0-9]{0,9}")
BOARD_RE = re.compile(r"[0-9A-Fa-f]{16}")
COLUMN_RE = re.compile(r"[0-9A-Fa-f]")
MOVES_RE = re.compile(r"-|[0-9A-Fa-f]{1,64}")
CELL_RE = re.compile(r"(0|[1-9][0-9]?)-(0|[1-9][0-9]?)")
COUNT_RE = re.compile(r"0|[1-9][0-9]*")


class Invalid(Exception):
    """A failed check; `where` is `line L` or `node ID (moves MOVES)`."""

    def __init__(self, where, reason):
        super().__init__(f"{where}: {reason}")


class Unreadable(Exception):
    pass


def short(text):
    """`text` quoted, cut to a readable length for a message."""
    return repr(text if len(text) <= 24 else text[:24] + "...")


def parse_id(text):
    if ID_RE.fullmatch(text) and int(text) < 1 << 32:
        return int(text)
    return None


def read_lines(f):
    """Yields (line number, text) for each line, without its `\\n`; rejects long lines, `\\r`
    and bytes that are not UTF-8. The last yielded flag says whether the line ended in `\\n`."""
    number = 0
    while True:
        try:
            raw = f.readline(MAX_LINE + 1)
        except OSError as e:
            raise Unreadable(str(e))
        if not raw:
            return
        number += 1
        ended = raw.endswith(b"\n")
        if ended:
            raw = raw[:-1]
        elif len(raw) > MAX_LINE:
            raise Invalid(f"line {number}", f"line longer than {MAX_LINE} bytes")
        if b"\r" in raw:
            raise Invalid(f"line {number}", "carriage return (\\r) not allowed")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid(f"line {number}", "not UTF-8")
        yield number, text


# ---------------------------------------------------------------- the check

def check(f):
    """Checks one certificate alone; returns (claim is win, node count, number of `c!w`
    replies, (root X board, root O board), obligations) or raises Invalid. The obligations are
    its `part` leaves in file order, each (X board, O board, node id, moves from the root to
    the node)."""
    lines = read_lines(f)
    header = ["score4-certificate 1", "game 3d", None, None]
    root_x = root_o = 0
    for k, expected in enumerate(header):
        item = next(lines, None)
        if item is None:
            raise Invalid(f"line {k + 1}", "truncated: header incomplete")
        number, text = item
        where = f"line {number}"
        if number <= 2 and text != expected:
            raise Invalid(where, f"expected {expected!r}")
        if number == 3:
            if not text.startswith("root ") or not MOVES_RE.fullmatch(text[5:]):
                raise Invalid(where, "expected 'root MOVES' (MOVES: '-' or column digits)")
            if text[5:] != "-":
                for k, digit in enumerate(text[5:]):
                    column = int(digit, 16)
                    if height(root_x, root_o, column) == 4:
                        raise Invalid(where, f"root move {k + 1} ({digit}): column full")
                    root_x, root_o = play(root_x, root_o, column)
                    if has_four(root_x) or has_four(root_o):
                        raise Invalid(where, f"root move {k + 1} ({digit}): four in a row "
                                             "(the game is over)")
        if number == 4:
            if text not in ("claim win", "claim hold"):
                raise Invalid(where, "expected 'claim win' or 'claim hold'")
            claim_win = text == "claim win"

    claimant_even = claim_win      # the claimant moves when the stone count is even iff it is X
    nodes = {}                     # id -> [x, o, line of definition (0: not yet), moves]
    parts = []                     # the obligations: (x, o, id, moves) of each `part` leaf
    count = 0
    win_replies = 0                # replies `c!w` of `every` nodes
    last = 4
    for number, text in lines:
        last = number
        if text.startswith("end"):
            if not (text.startswith("end ") and COUNT_RE.fullmatch(text[4:])):
                raise Invalid(f"line {number}", "expected 'end COUNT'")
            if text[4:] != str(count):
                raise Invalid(f"line {number}",
                              f"end count {short(text[4:])} but {count} node lines")
            if next(lines, None) is not None:
                raise Invalid(f"line {number + 1}", "content after the end line")
            for ident, (_, _, defined, moves) in nodes.items():
                if not defined:
                    raise Invalid(f"node {ident} (moves {moves or '-'})",
                                  "referenced but never defined (dangling id)")
            if count == 0:
                raise Invalid(f"line {number}", "no node lines")
            return claim_win, count, win_replies, (root_x, root_o), parts
        count += 1
        fields = text.split(" ")
        ident = parse_id(fields[0])
        if ident is None:
            raise Invalid(f"line {number}", "expected a node line 'ID XBOARD OBOARD KIND' "
                                            "(ID decimal < 2^32, no sign or leading zero)")
        if count == 1:
            if ident != 0:
                raise Invalid(f"line {number}", "the first node line must be the root, id 0")
            nodes[0] = [root_x, root_o, 0, ""]
        if ident not in nodes:
            raise Invalid(f"line {number}", f"node {ident} not referenced by an earlier line")
        entry = nodes[ident]
        where = f"node {ident} (moves {entry[3] or '-'})"
        if entry[2]:
            raise Invalid(where, f"duplicate id (line {number}; first defined at line {entry[2]})")
        entry[2] = number
        win_replies += check_node(where, fields, entry[0], entry[1], claim_win, claimant_even,
                                  nodes, entry[3])
        if fields[3] == "part":
            parts.append((entry[0], entry[1], ident, entry[3]))
    raise Invalid(f"line {last + 1}", "truncated: no end line")


def check_node(where, fields, x, o, claim_win, claimant_even, nodes, moves):
    """Checks one node line; returns the number of its `c!w` replies (0 but for `every`)."""
    win_replies = 0
    if len(fields) < 4:
        raise Invalid(where, "expected 'ID XBOARD OBOARD KIND'")
    if not (BOARD_RE.fullmatch(fields[1]) and BOARD_RE.fullmatch(fields[2])):
        raise Invalid(where, "a board must be exactly 16 hexadecimal digits")
    if int(fields[1], 16) != x or int(fields[2], 16) != o:
        raise Invalid(where, f"boards {fields[1]} {fields[2]} but the position is "
                             f"{x:016X} {o:016X}")
    kind, args = fields[3], fields[4:]
    stones = bin(x | o).count("1")
    claimant_moves = (stones % 2 == 0) == claimant_even
    x_four, o_four, full = has_four(x), has_four(o), x | o == FULL
    if kind == "over":
        if args:
            raise Invalid(where, "'over' takes no arguments")
        if claim_win and not x_four:
            raise Invalid(where, "over: X does not have four")
        if not claim_win and (x_four or not (o_four or full)):
            raise Invalid(where, "over: X has four, or O has no four and the board is not full")
        return 0
    if x_four or o_four:
        raise Invalid(where, f"{'X' if x_four else 'O'} already has four ('{kind}' needs a "
                             "game in progress)")
    if full:
        raise Invalid(where, f"the board is full ('{kind}' needs a game in progress)")

    def reference(column, target, child_moves):
        cx, co = play(x, o, column)
        if target not in nodes:
            nodes[target] = [cx, co, 0, child_moves]
        elif nodes[target][0] != cx or nodes[target][1] != co:
            t = nodes[target]
            raise Invalid(where, f"reference to node {target} by column {HEX[column]} leads to "
                                 f"{cx:016X} {co:016X}, but node {target} (moves "
                                 f"{t[3] or '-'}) is {t[0]:016X} {t[1]:016X}")

    if kind in ("choose", "win"):
        want = 2 if kind == "choose" else 1
        if len(args) != want or not COLUMN_RE.fullmatch(args[0]) or \
                (kind == "choose" and parse_id(args[1]) is None):
            raise Invalid(where, "expected 'choose COLUMN ID'" if want == 2 else
                          "expected 'win COLUMN'")
        if not claimant_moves:
            raise Invalid(where, f"'{kind}' but the opponent is to move")
        column = int(args[0], 16)
        if height(x, o, column) == 4:
            raise Invalid(where, f"column {HEX[column]} is full")
        if kind == "choose":
            reference(column, parse_id(args[1]), moves + HEX[column])
        else:
            cx, co = play(x, o, column)
            if not has_four(cx if claim_win else co):
                raise Invalid(where, f"win {HEX[column]}: the claimant does not get four")
    elif kind == "every":
        if claimant_moves:
            raise Invalid(where, "'every' but the claimant is to move")
        if not args or len(args) > 16:
            raise Invalid(where, "'every' needs 1 to 16 entries")
        seen = set()
        for arg in args:
            # A reply is `c:k` (the node k follows) or `c!w` (the claimant then wins with w).
            form = arg[1:2]
            ident = parse_id(arg[2:]) if form == ":" else None
            if not COLUMN_RE.fullmatch(arg[:1]) or not (
                    ident is not None or form == "!" and COLUMN_RE.fullmatch(arg[2:])):
                raise Invalid(where, f"bad reply {short(arg)} (expected COLUMN:ID or "
                                     "COLUMN!COLUMN)")
            column = int(arg[0], 16)
            if column in seen:
                raise Invalid(where, f"every: column {HEX[column]} listed twice")
            seen.add(column)
            if form == "!":
                reason = win_reply_fault(x, o, claim_win, column, int(arg[2], 16))
                if reason:
                    raise Invalid(where, f"reply {arg}: {reason}")
                win_replies += 1
                continue
            if height(x, o, column) == 4:
                raise Invalid(where, f"every: column {HEX[column]} is full")
            reference(column, ident, moves + HEX[column])
        missing = [HEX[c] for c in range(16) if height(x, o, c) < 4 and c not in seen]
        if missing:
            raise Invalid(where, f"every: legal column(s) {''.join(missing)} missing")
    elif kind == "pairs":
        check_pairs(where, args, x, o, claim_win, stones)
    elif kind == "zugzwang":
        check_zugzwang(where, args, x, o, claim_win, stones)
    elif kind == "part":
        # Proven by another certificate of the set: the caller records the obligation.
        if args:
            raise Invalid(where, "'part' takes no arguments")
        if not moves:              # only the root, id 0, has no moves from the root
            raise Invalid(where, "part at the root: a certificate cannot be its own part")
    else:
        raise Invalid(where, f"unknown kind {short(kind)}")
    return win_replies


def win_reply_fault(x, o, claim_win, column, win):
    """Why the reply `column!win` of an `every` node at (x, o) fails, or None if it holds: the
    opponent plays `column`, the game goes on, and the claimant completes four with `win`."""
    if height(x, o, column) == 4:
        return f"column {HEX[column]} is full"
    x, o = play(x, o, column)
    if has_four(x) or has_four(o) or x | o == FULL:
        return f"the game is over after {HEX[column]}"
    if height(x, o, win) == 4:
        return f"column {HEX[win]} is full"
    x, o = play(x, o, win)
    if not has_four(x if claim_win else o):
        return f"the move {HEX[win]} does not complete four"
    return None


def check_pairs(where, args, x, o, claim_win, stones):
    if claim_win:
        raise Invalid(where, "'pairs' in a certificate claiming 'win'")
    if stones % 2:
        raise Invalid(where, "'pairs' but O is to move")
    check_strategy(where, "pairs", args, x, o, None)


def check_zugzwang(where, args, x, o, claim_win, stones):
    """X's zugzwang on an odd threat t (docs/CERTIFICATE.md, "Strategy leaves")."""
    if not claim_win:
        raise Invalid(where, "'zugzwang' in a certificate claiming 'hold'")
    if stones % 2 == 0:
        raise Invalid(where, "'zugzwang' but X is to move")
    if not args or not re.fullmatch(r"0|[1-9][0-9]?", args[0]) or int(args[0]) > 63:
        raise Invalid(where, f"zugzwang: bad cell {short(args[0]) if args else '(none)'}")
    t = int(args[0])
    if t // 16 != 2 or height(x, o, t % 16) > 1:
        raise Invalid(where, f"zugzwang: cell {t} is not on layer 2 of a column of one stone "
                             "or none")
    if not is_threat(x, t):
        raise Invalid(where, f"zugzwang: cell {t} is not a threat of X")
    check_strategy(where, "zugzwang", args[1:], x, o, t)


def is_threat(own, cell):
    """Some line through `cell` has stones of `own` on its three other cells."""
    return any(line >> cell & 1 and own & line == line & ~(1 << cell) for line in LINES)


def column_mask(column, lowest=0):
    """The cells of `column` on layers `lowest` to 3."""
    return sum(1 << (16 * z + column) for z in range(lowest, 4))


def check_strategy(where, kind, args, x, o, t):
    """The pairs and changes of a `pairs` leaf or of a `zugzwang t` leaf (after `t`), then the
    kill test (docs/CERTIFICATE.md, "Strategy leaves: `pairs` and `zugzwang`")."""
    defender, own = ("O", o) if kind == "pairs" else ("X", x)
    heights = [height(x, o, c) for c in range(16)]
    special = set() if t is None else {t % 16}
    sure = 0 if t is None else 1 << t | 1 << (t + 16)
    mirrors = []                   # the mirror pairs
    first = 0                      # the pairs come first, then the changes
    while first < len(args) and args[first] not in ("mirror", "tempo"):
        first += 1
    changes = args[first:]
    for k in range(0, len(changes), 3):
        name, columns = changes[k], changes[k + 1:k + 3]
        if name not in ("mirror", "tempo"):
            raise Invalid(where, f"{kind}: pair {short(name)} after a change" if
                          CELL_RE.fullmatch(name) else f"{kind}: unknown token {short(name)} "
                          "(expected CELL-CELL, 'mirror A B' or 'tempo T V')")
        if len(columns) < 2 or not all(COLUMN_RE.fullmatch(c) for c in columns):
            raise Invalid(where, f"{kind}: expected '{name} COLUMN COLUMN'")
        a, b = int(columns[0], 16), int(columns[1], 16)
        change = f"{name} {HEX[a]} {HEX[b]}"
        if a == b:
            raise Invalid(where, f"{kind}: {change}: the same column twice")
        for c in (a, b):
            if c in special:
                raise Invalid(where, f"{kind}: {change}: column {HEX[c]} special twice")
            special.add(c)
        if name == "mirror":
            if heights[a] != heights[b] or heights[a] == 4:
                raise Invalid(where, f"{kind}: {change}: heights {heights[a]} and {heights[b]} "
                                     "(must be equal, below 4)")
            mirrors += [(16 * z + a, 16 * z + b) for z in range(heights[a], 4)]
        else:
            if heights[a] != 1 or heights[b] != 1:
                raise Invalid(where, f"{kind}: {change}: heights {heights[a]} and {heights[b]} "
                                     "(each must hold exactly one stone)")
            if not is_threat(own, 32 + b):
                raise Invalid(where, f"{kind}: {change}: cell {32 + b} is not a threat of "
                                     f"{defender}")
            sure |= 1 << (32 + a) | 1 << (48 + b)
    pair_cells = {16 * heights[c] + c for c in range(16) if heights[c] % 2 and c not in special}
    if t is not None and heights[t % 16] == 0:
        pair_cells.add(t % 16)     # the bottom cell of an empty column of the zugzwang's threat
    partner = read_pairs(where, kind, args[:first], pair_cells)
    excluded = sum(1 << c for c in pair_cells) | sum(column_mask(c) for c in special)
    sure |= ~(x | o) & FULL & ODD_LAYERS & ~excluded
    check_lines_killed(where, kind, defender, own, sure, x | o,
                       list(partner.items()) + mirrors)


def check_lines_killed(where, kind, defender, own, sure, occupied, pairs):
    """Every line is dead: it holds a stone of the defender or a sure cell, both cells of a pair,
    or (aftereven) a cell above each empty cell of a line L of defender stones and sure cells."""
    killers = own | sure
    # For each such L, the cells above each of its empty cells, in the same column.
    afters = [[column_mask(e % 16, e // 16 + 1) for e in range(64) if (L & ~occupied) >> e & 1]
              for L in LINES if L & killers == L]
    for line in LINES:
        if line & killers:
            continue
        if any(line >> a & 1 and line >> b & 1 for a, b in pairs):
            continue
        if any(all(line & above for above in aboves) for aboves in afters):
            continue
        cells = [i for i in range(64) if line >> i & 1]
        raise Invalid(where, f"{kind}: line {cells} has no {defender} stone, sure cell or whole "
                             "pair, and no aftereven")


def read_pairs(where, kind, args, pair_cells):
    """The pairs `a-b` as a perfect matching of `pair_cells`: each cell's partner."""
    partner = {}
    for arg in args:
        match = CELL_RE.fullmatch(arg)
        if not match or int(match[1]) > 63 or int(match[2]) > 63:
            raise Invalid(where, f"{kind}: bad pair {short(arg)} (expected CELL-CELL, cells 0..63,"
                                 " or 'mirror A B' or 'tempo T V')")
        a, b = int(match[1]), int(match[2])
        for cell in (a, b):
            if cell not in pair_cells:
                raise Invalid(where, f"{kind}: cell {cell} is not a pair cell")
            if cell in partner or a == b:
                raise Invalid(where, f"{kind}: cell {cell} listed twice")
        partner[a], partner[b] = b, a
    unlisted = sorted(pair_cells - partner.keys())
    if unlisted:
        raise Invalid(where, f"{kind}: pair cell(s) {unlisted} not listed")
    return partner


# ---------------------------------------------------------------- main

def verdict(claim_win):
    return "X wins" if claim_win else "X does not win"


def main(argv):
    files = argv[1:]
    if files and files[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if files and files[0] == "--":
        files = files[1:]
    if not files:
        print("usage: python3 tools/verify_certificate.py FILE...", file=sys.stderr)
        return 2
    status = 0
    roots = set()      # (claim is win, root X board, root O board) of every file valid alone
    waiting = []       # (name, claim is win, summary, obligations) of files valid alone with
    #                    parts; the summary is `N nodes` and, if any, `, W win replies`
    for name in files:
        try:
            with open(name, "rb") as f:
                claim_win, count, win_replies, root, parts = check(f)
            roots.add((claim_win, root[0], root[1]))
            summary = f"{count} nodes" + (f", {win_replies} win replies" if win_replies else "")
            if parts:
                waiting.append((name, claim_win, summary, parts))
            else:
                print(f"{name}: valid: {verdict(claim_win)}, {summary}", flush=True)
        except OSError as e:
            print(f"{name}: cannot read: {e.strerror or e}", file=sys.stderr, flush=True)
            status = 2
        except Unreadable as e:
            print(f"{name}: cannot read: {e}", file=sys.stderr, flush=True)
            status = 2
        except Invalid as e:
            print(f"{name}: invalid: {e}", file=sys.stderr, flush=True)
            status = max(status, 1)
        except Exception as e:  # never a traceback, whatever the file holds
            print(f"{name}: invalid: internal error: {type(e).__name__}: {e}", file=sys.stderr,
                  flush=True)
            status = max(status, 1)
    # The join: every `part` leaf must be the root position, with the same claim, of a file of
    # the set valid alone.
    for name, claim_win, summary, parts in waiting:
        unmet = next((p for p in parts if (claim_win, p[0], p[1]) not in roots), None)
        if unmet is None:
            print(f"{name}: valid: {verdict(claim_win)}, {summary}, {len(parts)} parts met",
                  flush=True)
            continue
        x, o, ident, moves = unmet
        claim = "win" if claim_win else "hold"
        print(f"{name}: invalid: node {ident} (moves {moves or '-'}): part: no certificate of the "
              f"set proves this position ({x:016x} {o:016x}) with the claim {claim}",
              file=sys.stderr, flush=True)
        status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
