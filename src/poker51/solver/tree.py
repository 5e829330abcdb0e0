"""Two-player zero-sum games as a public tree carrying vectors of private states.

The solver never walks card deals one by one.  A game is a tree of **public**
nodes (everything both players see: the betting line, a board card, a public
draw count) and, at each public node, each player ``q`` holds one of
``n_states[q, node]`` **private states** (its cards, class, bucket...).  One
pass of CFR or of a best response visits every public node once and does vector
arithmetic over the private states (Johanson et al. 2012, "Efficient Nash
equilibrium approximation through Monte Carlo counterfactual regret
minimization", public-tree / vector form).

Writing a game
--------------
Write a recursive Python function that creates the children first and returns
the id of the node it made (nodes are built bottom-up; ids are builder-local)::

    b = GameBuilder("kuhn")
    def bet_seq(...):
        ...
        return b.add_decision(player, [child_0, child_1, ...])
    root = b.add_private_chance(first_betting_node, deal0, deal1)
    game = b.build(root)

``build(root)`` re-numbers the nodes in pre-order (a parent before its
children), infers every node's private-state counts top-down starting from
**one state per player at the root**, validates all shapes, and freezes flat
NumPy arrays (:class:`GameArrays`).  Node kinds and builder calls:

``add_decision(player, children, infosets=None)``
    ``player`` (0 or 1) picks child ``a`` (action ``a``).  Private states are
    unchanged.  ``infosets`` groups the acting player's private states into
    information sets: a sequence of one hashable key per private state.  Keys
    are global for that player: the same key at two nodes (or twice at one
    node) is one information set, with one strategy (all its nodes must have
    the same number of actions).  ``None`` (the default) makes every
    (node, private state) its own information set: perfect recall.
    ``group=prefix`` (a tuple) instead of ``infosets`` means the keys
    ``(*prefix, s)`` for every state ``s``; the builder then looks the prefix up
    once per node instead of once per state (large games).
``add_chance(children, probs, masks=None)``
    A **public** chance event (Leduc's board card): outcome ``k`` has
    probability ``probs[k]``.  ``masks[k] = (m0, m1)``, each ``None`` (all ones)
    or a weight vector over that player's private states (0 where the state is
    incompatible with the outcome, e.g. it holds the board card).  Private
    states are unchanged.
``add_private_chance(child, matrix0=None, matrix1=None)``
    A **private** chance event: player ``q``'s state ``i`` becomes state ``j``
    with weight ``matrix_q[i, j]`` (``n_before x n_after``, dense or any SciPy
    sparse matrix; ``None`` = identity).  Used for the deal (from the single
    root state) and for draws (class -> (class, bucket)).
``add_fold(folder, contrib, compat=None)``
    ``folder`` gives up; ``contrib = (c0, c1)`` are the pot contributions.
    Player 0 receives ``-c0`` if it folded, else ``+c1``, in every compatible
    pair of private states.
``add_showdown(contrib, win=None, compat=None, strengths=None)``
    Either ``win`` (``n0 x n1`` matrix, +1 player 0 wins, -1 loses, 0 tie) or
    ``strengths = (s0, s1)`` (integer hand strengths, higher wins, equal
    splits; **ranked mode** for independent players, evaluated in
    O(n0 + n1 + #strengths) with a histogram and cumulative sums, never
    O(n0 n1)).  Player 0 receives ``+c1`` on a win, ``-c0`` on a loss and
    ``(c1 - c0)/2`` on a tie.

``compat`` (``n0 x n1``, 0/1, stored dense: small games only) says which pairs of private
states can coexist (two players cannot hold the same card); ``None`` means all
pairs are possible (independent private states).  All payoffs are stored and
reported **from player 0's point of view**; player 1 receives the negative.

Chance probabilities and card removal (exactness)
-------------------------------------------------
The probability of a terminal history is the product of the public-chance
probabilities on the path, of each player's private-chance weights along its
own transitions and masks, and of ``compat`` at the terminal.  Because the
players' weights multiply, a game with card removal must choose per-player
weights whose product is the true joint probability on every compatible pair:
deal player 0 with weight ``1/6`` per card and player 1 with weight ``1/5``
per card (a matrix row may sum to more than 1), and give each board card the
probability ``1/4`` = 1 / (cards left) with a mask that zeros the states holding
it.  Every compatible (c0, c1, board) then has probability 1/6 * 1/5 * 1/4 =
1/120 exactly, the incompatible ones get 0 from the masks and ``compat``, and
the total is exactly 1 (:func:`chance_mass` checks it; the tests assert it).
Independent draws (Poker 51) need no masks: rows of the transition matrices
are then probability distributions.

Information sets and imperfect recall
-------------------------------------
An information set ``I`` may group several (public node, private state) pairs
of one player.  CFR accumulates, for each action, the counterfactual regrets
of its members, each weighted by the member's full own probability
``q = (own strategy reach) x (own chance weight incl. public chance above)``,
and rescaled by ``sum C / sum q`` where ``C`` is the member's chance weight
alone (:mod:`poker51.solver.cfr` gives the formula).  When all members share the own
strategy reach (perfect recall, or grouping that only forgets chance or the
opponent's moves, like Riemann reading d = 5 as 4), this is exactly the usual
counterfactual regret sum_h pi_-i(h) u(h); a singleton set gives vanilla CFR.
The average strategy is weighted by ``q`` summed over the members.  Best
responses (:mod:`poker51.solver.best_response`) maximise per private state, i.e. they
let a grouping player recall what its grouping forgot (an upper bound; exact
for perfect-recall players).

How Poker 51 fits
-----------------
Player 0 = H, player 1 = R.  Root: ``add_private_chance`` with 1 x n_class rows
(class distribution), no compat.  H's first decision has 30 actions (draw count
d x check/bet) and its children are the betting subtrees, so d is in the public
node.  After each pre-draw line that does not fold: ``add_private_chance`` with
H's matrix ``T_H[d]`` (n_class x (n_class * 40), class -> (class, bucket), a
sparse matrix shared by all nodes with the same d; the builder deduplicates
equal matrices) and R's matrix ``T_R`` (same shape).  Post-draw betting, then
``add_showdown(contrib, strengths=(bucket_rank_H, bucket_rank_R))`` (ranked
mode: no card removal between players).  R's information sets: pre-draw key
(class, betting line with d=5 read as 4); post-draw key (bucket, R's draw
count(class), H's d read as 4, pre- and post-draw line), passed as
``infosets=`` so several (class, bucket) states share one strategy.  If R's
draw count must be public, put it in the tree with ``add_chance`` whose masks
keep the classes with that draw count (probability 1 per outcome).  The public
tree has a few thousand nodes; memory is ~8 bytes x (node states + 4 x
infoset-actions), see :meth:`Game.nbytes`.
"""

from __future__ import annotations

import collections
import hashlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

# node-kind codes and the kernels live in poker51.solver.passes; re-exported here for users of the game
from poker51.solver.layout import layout
from poker51.solver.passes import (  # noqa: F401
    CHANCE,
    DECISION,
    FOLD,
    PRIVATE_CHANCE,
    SHOWDOWN,
    forward_reach,
    node_values,
    scratch_size,
)

KIND_NAMES = ("decision", "chance", "private_chance", "fold", "showdown")


@dataclass(frozen=True)
class _Group:
    """``add_decision(..., group=prefix)``: private state ``s`` is in the set ``(*prefix, s)``."""

    prefix: tuple


#: The frozen flat arrays that every kernel reads (a namedtuple so Numba can take it).
#:
#: Nodes ``n`` are in pre-order.  Per node: ``kind``, ``player`` (acting player at
#: a decision, folder at a fold, else -1), ``child_start``/``child_count`` into
#: ``children`` (edge ``e = child_start[n] + a``), ``contrib[n] = (c0, c1)`` at
#: terminals, ``node_chance[n]`` = product of public chance probabilities above
#: ``n``.  Private vectors: player ``q``'s states at node ``n`` are
#: ``state_off[q, n] + s`` for ``s < n_states[q, n]`` in flat per-player vectors,
#: the nodes' ranges laid end to end in the visiting order ``order``
#: (:func:`state_offsets`; :func:`per_state` expands a per-node array to them);
#: the decision nodes' lists ``state_iset[iset_off[n]:]`` likewise (:func:`set_lists`).
#: Decision: ``state_iset[iset_off[n] + s]`` is the information set of the
#: acting player's state ``s``; its actions are ``act_off[i] + a``.  Chance:
#: ``edge_prob[e]``, mask ``mask_off[q, e]`` (-1 = ones) into ``mask_data``.
#: Private chance: ``pmat[q, n]`` (-1 = identity) is a CSR matrix id in the
#: matrix store (``mat_ptr_off``, ``mat_nnz_off``, ``mat_ptr``, ``mat_idx``,
#: ``mat_val``).  Terminals: ``compat[n]`` (-1 = all pairs), ``win[n]`` (showdown
#: matrix mode) are ids of dense row-major ``n0 x n1`` matrices at
#: ``dmat_data[dmat_off[m]:]``; ``rank_off[q, n]`` into ``rank_data`` with
#: ``rank_size[n]`` levels (ranked mode; -1 otherwise).  ``chance_reach[q]``:
#: static own chance weight x ``node_chance`` per (node, state).  Information sets
#: of player q are ``iset_range[q] : iset_range[q + 1]`` (player 0's first).
#: The visiting order (``order``, ``seg_off``, ``seg_cost``), the members of each
#: information set (``member_off``, ``member_node``, ``member_state``) and
#: ``br_one_pass`` are described in :mod:`poker51.solver.layout`.
GameArrays = collections.namedtuple(
    "GameArrays",
    [
        "kind",
        "player",
        "child_start",
        "child_count",
        "children",
        "contrib",
        "node_chance",
        "n_states",
        "state_off",
        "iset_off",
        "state_iset",
        "iset_player",
        "act_off",
        "num_actions",
        "iset_size",
        "edge_prob",
        "mask_off",
        "mask_data",
        "pmat",
        "mat_ptr_off",
        "mat_nnz_off",
        "mat_ptr",
        "mat_idx",
        "mat_val",
        "dmat_off",
        "dmat_data",
        "compat",
        "win",
        "rank_off",
        "rank_data",
        "rank_size",
        "chance_reach0",
        "chance_reach1",
        "dec_nodes0",
        "dec_nodes1",
        "iset_range",
        "order",
        "seg_off",
        "seg_cost",
        "member_off",
        "member_node",
        "member_state",
        "br_one_pass",
    ],
)


@dataclass(frozen=True)
class Game:
    """A built game: flat arrays plus the names a human needs.

    ``arrays`` is a :data:`GameArrays`.  A *policy* is a float64 vector of
    length ``num_actions`` (all information sets of both players), each
    information set's slice ``act_off[i] : act_off[i] + num_actions[i]``
    summing to 1.
    """

    name: str
    arrays: GameArrays
    iset_keys: list = field(repr=False)

    @property
    def num_nodes(self) -> int:
        return len(self.arrays.kind)

    @property
    def num_infosets(self) -> int:
        return len(self.arrays.iset_player)

    @property
    def num_actions(self) -> int:
        return int(self.arrays.act_off[-1])

    def uniform_policy(self) -> np.ndarray:
        """The policy that plays every action of every information set equally."""
        a = self.arrays
        return np.repeat(1.0 / a.num_actions, a.num_actions).astype(np.float64)

    def player_actions(self, player: int) -> np.ndarray:
        """Boolean mask over the policy vector: the actions of ``player``."""
        a = self.arrays
        return np.repeat(a.iset_player == player, a.num_actions)

    def nbytes(self) -> int:
        """Bytes held by the frozen arrays."""
        return int(sum(x.nbytes for x in self.arrays))

    def infoset_slice(self, i: int) -> slice:
        return slice(int(self.arrays.act_off[i]), int(self.arrays.act_off[i + 1]))


class GameBuilder:
    """Build a game bottom-up; see the module docstring.  Node ids are opaque ints."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._nodes: list[tuple] = []
        self._mats: list = []  # CSR triples (indptr, indices, data, shape)
        self._mat_index: dict = {}
        self._dmats: list = []  # dense terminal matrices (compat, win)
        self._dmat_index: dict = {}

    # -- shared data ---------------------------------------------------------------
    def _matrix(self, m) -> int:
        if m is None:
            return -1
        if hasattr(m, "tocsr"):
            m = m.tocsr()
            m.sort_indices()
            indptr, idx, val, shape = m.indptr, m.indices, m.data, m.shape
        else:
            d = np.asarray(m, dtype=np.float64)
            if d.ndim != 2:
                raise ValueError("a matrix must be 2-D")
            rows, cols = np.nonzero(d)
            indptr = np.zeros(d.shape[0] + 1, np.int64)
            np.add.at(indptr, rows + 1, 1)
            indptr = np.cumsum(indptr)
            idx, val, shape = cols, d[rows, cols], d.shape
        trip = (
            np.asarray(indptr, np.int64),
            np.asarray(idx, np.int64),
            np.asarray(val, np.float64),
            tuple(int(x) for x in shape),
        )
        key = hashlib.sha1(b"".join(x.tobytes() for x in trip[:3]) + repr(trip[3]).encode()).digest()
        if key not in self._mat_index:
            self._mat_index[key] = len(self._mats)
            self._mats.append(trip)
        return self._mat_index[key]

    def _dense(self, m) -> int:
        if m is None:
            return -1
        d = np.ascontiguousarray(m.toarray() if hasattr(m, "toarray") else m, dtype=np.float64)
        if d.ndim != 2:
            raise ValueError("a matrix must be 2-D")
        key = hashlib.sha1(d.tobytes() + repr(d.shape).encode()).digest()
        if key not in self._dmat_index:
            self._dmat_index[key] = len(self._dmats)
            self._dmats.append(d)
        return self._dmat_index[key]

    def _new(self, *node) -> int:
        self._nodes.append(node)
        return len(self._nodes) - 1

    # -- node kinds ------------------------------------------------------------------
    def add_decision(
        self,
        player: int,
        children: Sequence[int],
        infosets: Sequence[Hashable] | None = None,
        *,
        group: tuple | None = None,
    ) -> int:
        if player not in (0, 1) or len(children) < 1:
            raise ValueError("a decision needs player 0/1 and at least one child")
        if infosets is not None and group is not None:
            raise ValueError("give infosets= or group=, not both")
        keys = _Group(group) if group is not None else (None if infosets is None else list(infosets))
        return self._new(DECISION, int(player), list(children), keys)

    def add_chance(self, children: Sequence[int], probs: Sequence[float], masks: Sequence[tuple] | None = None) -> int:
        if len(children) != len(probs) or len(children) < 1:
            raise ValueError("a chance node needs one probability per child")
        if masks is None:
            masks = [(None, None)] * len(children)
        ms = [tuple(None if m is None else np.asarray(m, np.float64) for m in pair) for pair in masks]
        return self._new(CHANCE, -1, list(children), [float(p) for p in probs], ms)

    def add_private_chance(self, child: int, matrix0=None, matrix1=None) -> int:
        return self._new(PRIVATE_CHANCE, -1, [child], self._matrix(matrix0), self._matrix(matrix1))

    def add_fold(self, folder: int, contrib: tuple[float, float], compat=None) -> int:
        if folder not in (0, 1):
            raise ValueError("folder must be 0 or 1")
        return self._new(FOLD, int(folder), [], tuple(map(float, contrib)), self._dense(compat))

    def add_showdown(self, contrib: tuple[float, float], win=None, compat=None, strengths: tuple | None = None) -> int:
        if (win is None) == (strengths is None):
            raise ValueError("a showdown needs exactly one of win= or strengths=")
        st = None
        if strengths is not None:
            st = tuple(np.asarray(s, np.int64) for s in strengths)
        return self._new(SHOWDOWN, -1, [], tuple(map(float, contrib)), self._dense(compat), self._dense(win), st)

    # -- freezing ----------------------------------------------------------------------
    def build(self, root: int) -> Game:
        """Number the nodes in pre-order, infer the private-state counts top-down and freeze
        the flat arrays (module docstring)."""
        flat = _Flattener(self, root)
        for i, v in enumerate(flat.order):
            flat.visit(i, self._nodes[v])
        arrays, iset_keys = flat.arrays()
        return Game(self.name, _with_chance_reach(arrays), iset_keys)


def _preorder(nodes: list[tuple], root: int) -> list[int]:
    """Builder node ids in pre-order, children left to right; refuses a node with two parents."""
    order: list[int] = []
    parent_seen: set[int] = set()
    stack = [root]
    while stack:
        v = stack.pop()
        order.append(v)
        kids = nodes[v][2]
        for c in kids:
            if c in parent_seen or c == root:
                raise ValueError(f"node {c} has two parents; the public tree must be a tree")
            parent_seen.add(c)
        stack.extend(reversed(kids))
    return order


class _Flattener:
    """The arrays of :data:`GameArrays` filled node by node in pre-order (:meth:`GameBuilder.build`)."""

    def __init__(self, builder: GameBuilder, root: int) -> None:
        self.b = builder
        self.order = _preorder(builder._nodes, root)
        self.new_id = {v: i for i, v in enumerate(self.order)}
        N = self.N = len(self.order)
        self.kind = np.empty(N, np.int8)
        self.player = np.full(N, -1, np.int8)
        self.child_count = np.zeros(N, np.int64)
        self.child_start = np.zeros(N, np.int64)
        self.contrib = np.zeros((N, 2), np.float64)
        self.node_chance = np.ones(N, np.float64)
        self.n_states = np.zeros((2, N), np.int64)
        self.n_states[:, 0] = 1
        self.pmat = np.full((2, N), -1, np.int64)
        self.compat = np.full(N, -1, np.int64)
        self.win = np.full(N, -1, np.int64)
        self.children: list[int] = []
        self.edge_prob: list[float] = []
        self.mask_off: list[list[int]] = [[], []]
        self.mask_data: list[np.ndarray] = []
        self.mask_len = 0
        self.rank_off = np.full((2, N), -1, np.int64)
        self.rank_size = np.zeros(N, np.int64)
        self.rank_data: list[np.ndarray] = []
        self.rank_len = 0
        self.iset_index: list[dict] = [{}, {}]
        self.iset_player: list[int] = []
        self.iset_nact: list[int] = []
        self.iset_keys: list = []
        self.iset_off = np.full(N, -1, np.int64)
        self.state_iset: list[np.ndarray] = []
        self.n_members = 0
        self.group_sets: list[dict] = [{}, {}]
        self.levels: dict = {}  # strength pairs already ranked (showdowns share them)

    def visit(self, i: int, nd: tuple) -> None:
        k, pl, kids = nd[0], nd[1], nd[2]
        self.kind[i], self.player[i] = k, pl
        self.child_start[i] = len(self.children)
        self.child_count[i] = len(kids)
        self.children.extend(self.new_id[c] for c in kids)
        ns = self.n_states[:, i].copy()
        for c in kids:  # default: states unchanged
            self.n_states[:, self.new_id[c]] = ns
            self.node_chance[self.new_id[c]] = self.node_chance[i]
        if k != CHANCE:
            self.edge_prob.extend([1.0] * len(kids))
            for q in (0, 1):
                self.mask_off[q].extend([-1] * len(kids))
        if k == DECISION:
            self.decision(i, pl, len(kids), nd[3], int(ns[pl]))
        elif k == CHANCE:
            self.chance(i, kids, nd[3], nd[4], ns)
        elif k == PRIVATE_CHANCE:
            self.private_chance(i, self.new_id[kids[0]], nd, ns)
        if k in (FOLD, SHOWDOWN):
            self.terminal(i, nd, ns)

    def decision(self, i: int, pl: int, n_actions: int, keys, n: int) -> None:
        self.iset_off[i] = self.n_members
        self.n_members += n
        if isinstance(keys, _Group):  # the sets (*group, s): looked up once per group, not per state
            cached = self.group_sets[pl].get(keys.prefix)
            if cached is not None and len(cached) == n and self.iset_nact[int(cached[0])] == n_actions:
                self.state_iset.append(cached)
                return
            keys = [(*keys.prefix, s) for s in range(n)]
            ids = self._sets(pl, n_actions, keys, n)
            self.group_sets[pl][keys[0][:-1]] = ids
            self.state_iset.append(ids)
            return
        if keys is not None and len(keys) != n:
            raise ValueError(f"decision node has {n} private states but {len(keys)} infoset keys")
        if keys is None:
            keys = [("_node", i, s) for s in range(n)]
        self.state_iset.append(self._sets(pl, n_actions, keys, n))

    def _sets(self, pl: int, n_actions: int, keys: list, n: int) -> np.ndarray:
        """The information sets of ``keys`` (new ones numbered in order of appearance)."""
        index = self.iset_index[pl]
        ids = np.empty(n, np.int64)
        for s, key in enumerate(keys):
            j = index.get(key)
            if j is None:
                j = index[key] = len(self.iset_player)
                self.iset_player.append(pl)
                self.iset_nact.append(n_actions)
                self.iset_keys.append((pl, key))
            elif self.iset_nact[j] != n_actions:
                raise ValueError(f"information set {key!r} has nodes with different action counts")
            ids[s] = j
        return ids

    def chance(self, i: int, kids, probs, masks, ns) -> None:
        for c, p, pair in zip(kids, probs, masks):
            self.edge_prob.append(p)
            self.node_chance[self.new_id[c]] = self.node_chance[i] * p
            for q in (0, 1):
                m = pair[q]
                if m is None:
                    self.mask_off[q].append(-1)
                    continue
                if len(m) != ns[q]:
                    raise ValueError(f"mask for player {q} has length {len(m)}, expected {ns[q]}")
                self.mask_off[q].append(self.mask_len)
                self.mask_data.append(m)
                self.mask_len += len(m)

    def private_chance(self, i: int, c: int, nd: tuple, ns) -> None:
        for q in (0, 1):
            m = nd[3 + q]
            self.pmat[q, i] = m
            if m >= 0:
                r, cols = self.b._mats[m][3]
                if r != ns[q]:
                    raise ValueError(f"player {q} transition has {r} rows, expected {ns[q]}")
                self.n_states[q, c] = cols

    def terminal(self, i: int, nd: tuple, ns) -> None:
        self.contrib[i] = nd[3]
        self.compat[i] = nd[4]
        if self.compat[i] >= 0 and self.b._dmats[self.compat[i]].shape != tuple(ns):
            raise ValueError(f"compat matrix shape {self.b._dmats[self.compat[i]].shape} != states {tuple(ns)}")
        if nd[0] != SHOWDOWN:
            return
        self.win[i] = nd[5]
        if self.win[i] >= 0 and self.b._dmats[self.win[i]].shape != tuple(ns):
            raise ValueError(f"win matrix shape {self.b._dmats[self.win[i]].shape} != states {tuple(ns)}")
        if nd[6] is not None:
            s0, s1 = nd[6]
            if len(s0) != ns[0] or len(s1) != ns[1]:
                raise ValueError("strength vectors must match the private-state counts")
            key = (s0.tobytes(), s1.tobytes())
            if key not in self.levels:  # rank once per distinct pair of strength vectors
                levels, inv = np.unique(np.concatenate([s0, s1]), return_inverse=True)
                self.levels[key] = (len(levels), self.rank_len, self.rank_len + len(s0))
                self.rank_data += [inv[: len(s0)].astype(np.int64), inv[len(s0) :].astype(np.int64)]
                self.rank_len += len(inv)
            self.rank_size[i], self.rank_off[0, i], self.rank_off[1, i] = self.levels[key]

    def arrays(self) -> tuple[GameArrays, list]:
        """The frozen arrays (chance reach still empty) and the information-set keys, player 0's
        sets numbered first: each player's actions are then one contiguous range of the policy
        vector, updated elementwise in one call."""
        mats, dmats = self.b._mats, self.b._dmats
        mat_ptr_off = np.zeros(len(mats) + 1, np.int64)
        mat_nnz_off = np.zeros(len(mats) + 1, np.int64)
        for m, (ptr, idx, _, _) in enumerate(mats):
            mat_ptr_off[m + 1] = mat_ptr_off[m] + len(ptr)
            mat_nnz_off[m + 1] = mat_nnz_off[m] + len(idx)
        perm = np.argsort(np.array(self.iset_player, np.int8), kind="stable")
        rank = np.empty_like(perm)
        rank[perm] = np.arange(len(perm))
        members = _cat(self.state_iset, np.int64)
        state_iset = rank[members] if len(members) else members
        iset_player = [self.iset_player[j] for j in perm]
        nact = np.array([self.iset_nact[j] for j in perm], np.int64)
        act_off = np.zeros(len(nact) + 1, np.int64)
        act_off[1:] = np.cumsum(nact)
        kind, player = self.kind, self.player
        children = np.array(self.children, np.int64)
        state_iset = np.array(state_iset, np.int64)
        dec = np.flatnonzero(kind == DECISION).astype(np.int64)
        lay = layout(
            self.child_start, self.child_count, children, self.n_states, player, self.iset_off, state_iset,
            len(perm), dec,
        )  # fmt: skip
        iset_off, state_iset = set_lists(self.iset_off, state_iset, self.n_states, player, lay["order"])
        arrays = GameArrays(
            kind=kind,
            player=player,
            child_start=self.child_start,
            child_count=self.child_count,
            children=children,
            contrib=self.contrib,
            node_chance=self.node_chance,
            n_states=self.n_states,
            state_off=state_offsets(self.n_states, lay["order"]),
            iset_off=iset_off,
            state_iset=state_iset,
            iset_player=np.array(iset_player, np.int8),
            act_off=act_off,
            num_actions=nact,
            iset_size=np.bincount(state_iset, minlength=len(perm)).astype(np.int64),
            edge_prob=np.array(self.edge_prob, np.float64),
            mask_off=np.array(self.mask_off, np.int64).reshape(2, -1),
            mask_data=_cat(self.mask_data, np.float64),
            pmat=self.pmat,
            mat_ptr_off=mat_ptr_off,
            mat_nnz_off=mat_nnz_off,
            mat_ptr=_cat([t[0] for t in mats], np.int64),
            mat_idx=_cat([t[1] for t in mats], np.int64),
            mat_val=_cat([t[2] for t in mats], np.float64),
            dmat_off=np.concatenate([[0], np.cumsum([d.size for d in dmats])]).astype(np.int64),
            dmat_data=_cat([d.ravel() for d in dmats], np.float64),
            compat=self.compat,
            win=self.win,
            rank_off=self.rank_off,
            rank_data=_cat(self.rank_data, np.int64),
            rank_size=self.rank_size,
            chance_reach0=np.zeros(0),
            chance_reach1=np.zeros(0),
            dec_nodes0=np.flatnonzero((kind == DECISION) & (player == 0)).astype(np.int64),
            dec_nodes1=np.flatnonzero((kind == DECISION) & (player == 1)).astype(np.int64),
            iset_range=np.array([0, sum(1 for x in iset_player if x == 0), len(iset_player)], np.int64),
            **lay,
        )
        return arrays, [self.iset_keys[j] for j in perm]


def state_offsets(n_states: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``state_off``: each player's per-node state vectors laid end to end in the passes'
    visiting order (:mod:`poker51.solver.layout`), not in pre-order.  A pass then moves
    through its vectors in one direction, a depth's nodes after one another and their
    children in the next depth's range, in the order it visits them: on a machine
    whose memory is slow the standard game's iteration took about a fifth less than with
    the vectors in pre-order (``docs/design-choices.md``, "State vectors in visiting
    order").  Only offsets move: every value is computed by the same operations."""
    out = np.zeros((2, n_states.shape[1]), np.int64)
    for q in (0, 1):
        ns = n_states[q, order]
        out[q, order] = np.cumsum(ns) - ns
    return out


def set_lists(
    iset_off: np.ndarray, state_iset: np.ndarray, n_states: np.ndarray, player: np.ndarray, order: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(iset_off, state_iset)`` with each decision node's list of its states' information
    sets moved into the visiting order, as :func:`state_offsets` moves the state vectors, so
    that everything a pass reads per node lies in the order it reads it (measured: 8% off
    the standard game's iteration on two threads in one process, no difference the whole
    solve command could tell).  The lists themselves are unchanged; ``iset_off`` is -1
    where a node has none."""
    dec = order[iset_off[order] >= 0]
    old = iset_off[dec]
    size = n_states[player[dec], dec]
    new = np.cumsum(size) - size
    out = np.full_like(iset_off, -1)
    out[dec] = new
    return out, state_iset[np.repeat(old - new, size) + np.arange(int(size.sum()))]


def per_state(arrays: GameArrays, q: int, per_node: np.ndarray) -> np.ndarray:
    """A per-node array expanded to player q's state vectors (each node's value at each of
    its states, wherever ``state_off`` puts them)."""
    order = arrays.order
    return np.repeat(np.asarray(per_node)[order], arrays.n_states[q, order])


def _cat(xs: list, dt) -> np.ndarray:
    return np.concatenate(xs).astype(dt) if xs else np.zeros(0, dt)


def _with_chance_reach(arrays: GameArrays) -> GameArrays:
    """Fill ``chance_reach{0,1}``: each player's own chance weight times the public chance
    above each (node, state), with every own action taken (all-ones policy)."""
    ones = np.ones(int(arrays.act_off[-1]), np.float64)
    cr = []
    for q in (0, 1):
        r = np.zeros(int(arrays.n_states[q].sum()), np.float64)
        forward_reach(arrays, q, ones, r)
        r *= per_state(arrays, q, arrays.node_chance)  # include public chance above each node
        cr.append(r)
    return arrays._replace(chance_reach0=cr[0], chance_reach1=cr[1])


def chance_mass(game: Game) -> float:
    """Total probability of all terminal histories (must be 1 for a valid game)."""
    a = game.arrays
    pol = game.uniform_policy()
    r0 = forward_reach(a, 0, pol)
    r1 = forward_reach(a, 1, pol)
    total = 0.0
    for n in np.flatnonzero((a.kind == FOLD) | (a.kind == SHOWDOWN)):
        x = r0[a.state_off[0, n] : a.state_off[0, n] + a.n_states[0, n]]
        y = r1[a.state_off[1, n] : a.state_off[1, n] + a.n_states[1, n]]
        if a.compat[n] < 0:
            m = x.sum() * y.sum()
        else:
            o = a.dmat_off[a.compat[n]]
            m = x @ a.dmat_data[o : o + len(x) * len(y)].reshape(len(x), len(y)) @ y
        total += a.node_chance[n] * m
    # strategy reach sums to 1 over each decision's children, so this is the chance mass
    return float(total)
