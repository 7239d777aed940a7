#!/usr/bin/env python3
"""The inputs deepmd-kit's C++ JAX backend gives a SavedModel's call_lower functions, and the
comparison of what they return with the references of deepmd-kit's C++ test.

Usage:
  deepmd_nlist.py inputs REFERENCE.json DIR    writes DIR/{coord,atype,nlist,mapping,fparam,aparam}.npy
  deepmd_nlist.py compare[-atomic] REFERENCE.json DIR OUT
                                               compares the results call_lower[_atomic_virial] wrote
                                               (OUT/out0..4.npy), forces and per-atom values folded
                                               back onto the local atoms, with the references;
                                               exit 1 when an error exceeds the tolerance

REFERENCE.json is ../shared/real/jax2tf-savedmodel/deepmd_deeppot_sea/reference_from_cc_tests.json:
the coordinates, types and box of source/api_cc/tests/test_deeppot_jax.cc (deepmd-kit, 2024-11)
and its expected per-atom energies (expected_e), forces (expected_f) and per-atom virials
(expected_v). Its test cpu_lmp_nlist_atomic builds a neighbour list the way LAMMPS would, calls
DeepPot::compute with it, and folds the results back; this script does the same steps, written
from what deepmd-kit's C++ does (no code of it):

1. Ghost atoms (source/lib/src/neighbor_list.cc, copy_coord): the box is cut into
   ncell = int(to_face / rc) cells per direction (to_face: the distance between opposite faces;
   at least 1 cell), ngcell = int(rc / cell_size) + 1 ghost cells on each side; the local atoms
   come first, then, over the ghost cells in x, y, z order (z fastest), a copy of the atoms of the
   periodic image cell, shifted by the box vectors; `mapping` gives each atom its local original.
2. The neighbour list (build_nlist with the extended region, and build_clist): atoms are put in
   cells of the extended grid; for each local cell (x, y, z order) and each cell within niter
   cells of it (niter = ceil(rc / cell_size)), every pair closer than rc (r^2 < rc^2) is recorded
   in both directions, a pair of local cells once (the lower cell index first), so each row is
   in the order that loop meets the neighbours. rc is the model's cutoff, 6.
3. DeepPotJAX::compute (source/api_cc/src/DeepPotJAX.cc) with that list (nghost = nall - nloc):
   coord and atype padded to padding_to_nall = int(nall * 1.05) atoms (zeros, type -1);
   nlist of shape [1, nloc, the longest row], rows padded with -1; mapping [1, padding_to_nall]
   of -1 (the test's list carries no mapping); fparam [1, 0]; aparam [1, nloc, 0]. It calls
   call_lower_with_atomic_virial, whose own graph (format_nlist) pads nlist with -1 to
   sum(sel) = 138 columns when it is shorter.
4. Results (the function's outputs in order: energy, energy_derv_c, energy_derv_c_redu,
   energy_derv_r, energy_redu, mask): forces are energy_derv_r, per-atom virials energy_derv_c,
   both cut to the nall real atoms; per-atom energies (nloc of them) are extended with zeros to
   nall; the test's _fold_back then adds each ghost atom's row to its local atom's (mapping of
   step 1), in atom order.
"""
import json
import math
import sys

import numpy as np

RCUT = 6.0  # the model's get_rcut(); the C++ test passes it as a float
PADDING_FACTOR = 1.05
TOLERANCE = 1e-10  # the C++ test's EPSILON for double


def to_face(box):
    """Distances between opposite faces of the cell whose rows are the box vectors."""
    vol = abs(np.linalg.det(box))
    return [vol / np.linalg.norm(np.cross(box[(d + 1) % 3], box[(d + 2) % 3])) for d in range(3)]


def cell_index(inter, orig, size, lo, hi):
    """The cell of internal coordinate `inter` (C++ truncation, one less below the origin), clamped."""
    idx = int((inter - orig) / size)
    if inter - orig < 0.0:
        idx -= 1
    return min(max(idx, lo), hi - 1)


def collapse(idx, size):
    return (idx[0] * size[1] + idx[1]) * size[2] + idx[2]


def copy_coord(coord, atype, box, rc):
    """Extended coordinates, types and mapping with the ghost atoms (step 1)."""
    nloc = len(atype)
    rec = np.linalg.inv(box)
    face = to_face(box)
    ncell = [max(int(face[d] / rc), 1) for d in range(3)]
    ngcell = [int(rc / (face[d] / ncell[d])) + 1 for d in range(3)]
    clist = [[] for _ in range(ncell[0] * ncell[1] * ncell[2])]
    for i in range(nloc):
        inter = coord[i] @ rec
        idx = [cell_index(inter[d], 0.0, 1.0 / ncell[d], 0, ncell[d]) for d in range(3)]
        clist[collapse(idx, ncell)].append(i)
    ext_c, ext_t, mapping = [c for c in coord], list(atype), list(range(nloc))

    def pbc_shift(i, n):
        s = 0
        if i < 0:
            s = 1
            while i + s * n < 0:
                s += 1
        elif i >= n:
            s = -1
            while i + s * n >= n:
                s -= 1
        return s

    for ix in range(-ngcell[0], ncell[0] + ngcell[0]):
        for iy in range(-ngcell[1], ncell[1] + ngcell[1]):
            for iz in range(-ngcell[2], ncell[2] + ngcell[2]):
                ii = (ix, iy, iz)
                if all(0 <= ii[d] < ncell[d] for d in range(3)):
                    continue
                shift = [pbc_shift(ii[d], ncell[d]) for d in range(3)]
                jj = [ii[d] + shift[d] * ncell[d] for d in range(3)]
                shift_v = np.array(shift, dtype=float) @ box
                for p in clist[collapse(jj, ncell)]:
                    ext_c.append(coord[p] - shift_v)
                    ext_t.append(atype[p])
                    mapping.append(p)
    return np.array(ext_c), ext_t, mapping, ncell, ngcell


def build_nlist(ext_c, nloc, box, rc, ncell, ngcell):
    """Each local atom's neighbours among the extended atoms, in deepmd's order (step 2)."""
    rec = np.linalg.inv(box)
    face = to_face(box)
    ext_stt = [-g for g in ngcell]
    ext_end = [ncell[d] + ngcell[d] for d in range(3)]
    ext_n = [ext_end[d] - ext_stt[d] for d in range(3)]
    shift = [-s for s in ext_stt]  # nat_stt - ext_stt
    clist = [[] for _ in range(ext_n[0] * ext_n[1] * ext_n[2])]
    for i in range(len(ext_c)):
        inter = ext_c[i] @ rec
        lo, hi = ([0, 0, 0], ncell) if i < nloc else (ext_stt, ext_end)
        idx = [cell_index(inter[d], 0.0, 1.0 / ncell[d], lo[d], hi[d]) + shift[d] for d in range(3)]
        clist[collapse(idx, ext_n)].append(i)
    niter = []
    for d in range(3):
        size = face[d] / ncell[d]
        n = int(rc / size)
        niter.append(n + 1 if n * size < rc else n)
    rc2 = rc * rc
    nlist = [[] for _ in range(nloc)]
    for cx in range(ncell[0]):
        for cy in range(ncell[1]):
            for cz in range(ncell[2]):
                c = (cx, cy, cz)
                ci = collapse([c[d] + shift[d] for d in range(3)], ext_n)
                for tx in range(cx - niter[0], cx + niter[0] + 1):
                    for ty in range(cy - niter[1], cy + niter[1] + 1):
                        for tz in range(cz - niter[2], cz + niter[2] + 1):
                            t = (tx, ty, tz)
                            ti = collapse([t[d] + shift[d] for d in range(3)], ext_n)
                            if all(0 <= t[d] < ncell[d] for d in range(3)) and ti < ci:
                                continue
                            for i in clist[ci]:
                                for j in clist[ti]:
                                    if ci == ti and j <= i:
                                        continue
                                    diff = ext_c[i] - ext_c[j]
                                    r2 = diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2]
                                    if r2 < rc2:
                                        if i < nloc:
                                            nlist[i].append(j)
                                        if j < nloc:
                                            nlist[j].append(i)
    return nlist


def system(ref):
    """The test's system, extended: (extended coords, types, mapping, neighbour rows, nloc)."""
    coord = np.array(ref['coord'], dtype=float).reshape(-1, 3)
    atype = [int(t) for t in ref['atype']]
    box = np.array(ref['box'], dtype=float).reshape(3, 3)
    ext_c, ext_t, mapping, ncell, ngcell = copy_coord(coord, atype, box, RCUT)
    return ext_c, ext_t, mapping, build_nlist(ext_c, len(atype), box, RCUT, ncell, ngcell), len(atype)


def write_inputs(ref, out):
    """The six inputs DeepPotJAX::compute passes (step 3)."""
    ext_c, ext_t, _, nlist, nloc = system(ref)
    nall = len(ext_t)
    pad = int(nall * PADDING_FACTOR)
    while pad < nall:
        pad = int(pad * PADDING_FACTOR)
    coord = np.zeros((1, pad, 3))
    coord[0, :nall] = ext_c
    atype = np.full((1, pad), -1, dtype=np.int32)
    atype[0, :nall] = ext_t
    width = max(len(row) for row in nlist)
    nl = np.full((1, nloc, width), -1, dtype=np.int64)
    for i, row in enumerate(nlist):
        nl[0, i, :len(row)] = row
    np.save(f'{out}/coord.npy', coord)
    np.save(f'{out}/atype.npy', atype)
    np.save(f'{out}/nlist.npy', nl)
    np.save(f'{out}/mapping.npy', np.full((1, pad), -1, dtype=np.int64))
    np.save(f'{out}/fparam.npy', np.zeros((1, 0)))
    np.save(f'{out}/aparam.npy', np.zeros((1, nloc, 0)))
    print(f'nloc {nloc}, nall {nall} (padded to {pad}), neighbours per atom {[len(r) for r in nlist]}')


def fold_back(values, mapping, nloc, ndim):
    """The test's _fold_back: local rows, plus each ghost's row added to its local atom's, in order."""
    out = [list(values[i * ndim:(i + 1) * ndim]) for i in range(nloc)]
    for i in range(nloc, len(mapping)):
        for d in range(ndim):
            out[mapping[i]][d] += values[i * ndim + d]
    return [v for row in out for v in row]


def check(name, got, want):
    """Prints the largest absolute and relative errors of `got` against `want`; True when within tolerance."""
    err = [abs(g - w) for g, w in zip(got, want)]
    rel = [e / abs(w) if w else math.inf if e else 0.0 for e, w in zip(err, want)]
    worst = max(range(len(err)), key=lambda i: err[i])
    good = len(got) == len(want) and max(err) <= TOLERANCE
    print(f'{name}: {len(got)} values, max abs error {max(err):.3g} (at {worst}: {got[worst]!r} vs {want[worst]!r}), '
          f'max rel error {max(rel):.3g}: {"ok" if good else "FAIL"} (tolerance {TOLERANCE:g})')
    return good


def compare(ref, out, atomic):
    """Compares the folded results with the references (step 4), as the C++ test does: total energy
    (energy_redu) and virial (energy_derv_c_redu) against the sums of the per-atom references,
    forces, and, for call_lower_atomic_virial, per-atom energies and virials. True when all hold."""
    _, ext_t, mapping, _, nloc = system(ref)
    nall = len(ext_t)
    energy = np.load(f'{out}/out0.npy').reshape(-1)
    virial = np.load(f'{out}/out1.npy').reshape(-1)[:nall * 9]
    force = np.load(f'{out}/out3.npy').reshape(-1)[:nall * 3]
    tot_v = [0.0] * 9
    for i in range(nloc):
        for d in range(9):
            tot_v[d] += ref['expected_v'][i * 9 + d]
    ok = check('total energy', list(np.load(f'{out}/out4.npy').reshape(-1)), [sum(ref['expected_e'])])
    ok = check('total virial', list(np.load(f'{out}/out2.npy').reshape(-1)), tot_v) and ok
    ok = check('expected_f', fold_back(list(force), mapping, nloc, 3), ref['expected_f']) and ok
    if atomic:
        atom_energy = list(energy[:nloc]) + [0.0] * (nall - nloc)
        ok = check('expected_e', fold_back(atom_energy, mapping, nloc, 1), ref['expected_e']) and ok
        ok = check('expected_v', fold_back(list(virial), mapping, nloc, 9), ref['expected_v']) and ok
    return ok


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'inputs':
        write_inputs(json.load(open(sys.argv[2]))['source/api_cc/tests/test_deeppot_jax.cc'], sys.argv[3])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] in ('compare', 'compare-atomic'):
        ref = json.load(open(sys.argv[2]))['source/api_cc/tests/test_deeppot_jax.cc']
        return 0 if compare(ref, sys.argv[4], sys.argv[1] == 'compare-atomic') else 1
    print(__doc__.split('\n\n')[1], file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
