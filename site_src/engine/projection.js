/* site_src/engine/projection.js: the twin of engine/projection.py (principal_axes, project,
   by_neighbours): vectors on a plane, the two directions of most variance (PCA), a vector
   projected onto them, and a place found from neighbours' places.

   project and byNeighbours add one term at a time in order, as Python does: equal bit for bit.
   principalAxes computes the same plane another way than numpy's SVD: the eigenvectors of the
   smaller of the centred vectors' two Gram matrices (n x n when there are fewer vectors than
   numbers in each, d x d otherwise), by Householder reflections to a tridiagonal matrix and
   implicit QL steps on it (about n^3 work once, where cyclic Jacobi rotations took seconds on a
   reader's 200 chunks and ran on the page's thread), its two largest eigenvalues' vectors taken
   as the axes (through the vectors for the n x n one). Equal to Python's to about 1e-12, and
   held to 1e-9 by tests/twins/, when the two largest variances are distinct and the second is
   not zero (otherwise an axis is not defined by the vectors). The sign rule is Python's: each
   axis's largest component (by absolute value; the first of equals) is positive. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  /** Each axis's coordinate: sum over d of axis[d] * (vector[d] - mean[d]). */
  function project(vector, mean, axes) {
    return axes.map((axis) => {
      let total = 0;
      for (let d = 0; d < axis.length; d++) total += axis[d] * (vector[d] - mean[d]);
      return total;
    });
  }

  /** The mean of the nearest items' places ([[id, cosine]], id -> [x, y]), weighted by cosine
   *  (a negative one by 0; all of them zero or less, equal weights). */
  function byNeighbours(nearest, placeOf) {
    let weights = nearest.map(([, cosine]) => Math.max(cosine, 0));
    if (!weights.some((w) => w > 0)) weights = nearest.map(() => 1);
    let x = 0, y = 0, total = 0;
    nearest.forEach(([id], i) => {
      x += weights[i] * placeOf[id][0];
      y += weights[i] * placeOf[id][1];
      total += weights[i];
    });
    return [x / total, y / total];
  }

  /** The eigenvalues of a symmetric size x size matrix (row after row) and its eigenvectors
   *  (the columns of `vectors`): Householder reflections bring it to a tridiagonal matrix,
   *  whose eigenvalues implicit QL steps with Wilkinson-like shifts then find. */
  function symmetricEigen(matrix, size) {
    const n = size, a = Float64Array.from(matrix);
    const d = new Float64Array(n), e = new Float64Array(n);
    for (let i = n - 1; i > 0; i--) {
      const l = i - 1;
      let h = 0, scale = 0;
      if (l > 0) {
        for (let k = 0; k <= l; k++) scale += Math.abs(a[i * n + k]);
        if (scale === 0) e[i] = a[i * n + l];
        else {
          for (let k = 0; k <= l; k++) { a[i * n + k] /= scale; h += a[i * n + k] * a[i * n + k]; }
          let f = a[i * n + l];
          let g = f >= 0 ? -Math.sqrt(h) : Math.sqrt(h);
          e[i] = scale * g;
          h -= f * g;
          a[i * n + l] = f - g;
          f = 0;
          for (let j = 0; j <= l; j++) {
            a[j * n + i] = a[i * n + j] / h;
            g = 0;
            for (let k = 0; k <= j; k++) g += a[j * n + k] * a[i * n + k];
            for (let k = j + 1; k <= l; k++) g += a[k * n + j] * a[i * n + k];
            e[j] = g / h;
            f += e[j] * a[i * n + j];
          }
          const hh = f / (h + h);
          for (let j = 0; j <= l; j++) {
            f = a[i * n + j];
            e[j] = g = e[j] - hh * f;
            for (let k = 0; k <= j; k++) a[j * n + k] -= f * e[k] + g * a[i * n + k];
          }
        }
      } else e[i] = a[i * n + l];
      d[i] = h;
    }
    d[0] = 0; e[0] = 0;
    for (let i = 0; i < n; i++) {
      const l = i - 1;
      if (d[i]) {
        for (let j = 0; j <= l; j++) {
          let g = 0;
          for (let k = 0; k <= l; k++) g += a[i * n + k] * a[k * n + j];
          for (let k = 0; k <= l; k++) a[k * n + j] -= g * a[k * n + i];
        }
      }
      d[i] = a[i * n + i];
      a[i * n + i] = 1;
      for (let j = 0; j <= l; j++) a[j * n + i] = a[i * n + j] = 0;
    }
    for (let i = 1; i < n; i++) e[i - 1] = e[i];
    e[n - 1] = 0;
    for (let l = 0; l < n; l++) {
      let iterations = 0, m;
      do {
        for (m = l; m < n - 1; m++) {
          const dd = Math.abs(d[m]) + Math.abs(d[m + 1]);
          if (Math.abs(e[m]) <= Number.EPSILON * dd) break;
        }
        if (m !== l) {
          if (iterations++ === 60) throw new RangeError("symmetricEigen: no convergence");
          let g = (d[l + 1] - d[l]) / (2 * e[l]);
          let r = Math.hypot(g, 1);
          g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
          let s = 1, c = 1, p = 0, i;
          let underflow = false;
          for (i = m - 1; i >= l; i--) {
            let f = s * e[i];
            const b = c * e[i];
            r = Math.hypot(f, g);
            e[i + 1] = r;
            if (r === 0) { d[i + 1] -= p; e[m] = 0; underflow = true; break; }
            s = f / r; c = g / r;
            g = d[i + 1] - p;
            r = (d[i] - g) * s + 2 * c * b;
            p = s * r;
            d[i + 1] = g + p;
            g = c * r - b;
            for (let k = 0; k < n; k++) {
              f = a[k * n + i + 1];
              a[k * n + i + 1] = s * a[k * n + i] + c * f;
              a[k * n + i] = c * a[k * n + i] - s * f;
            }
          }
          if (underflow) continue;
          d[l] -= p; e[l] = g; e[m] = 0;
        }
      } while (m !== l);
    }
    return { values: Array.from(d), vectors: a };
  }

  /** {mean, axes: the two unit directions of most variance, share: of the variance each keeps}. */
  function principalAxes(vectors) {
    const n = vectors.length;
    const d = n ? vectors[0].length : 0;
    if (n < 3 || d < 2) throw new RangeError(`principalAxes: needs 3 vectors or more of 2 numbers or more, got ${n} of ${d}`);
    const mean = new Array(d).fill(0);
    for (const vector of vectors) for (let j = 0; j < d; j++) mean[j] += vector[j];
    for (let j = 0; j < d; j++) mean[j] /= n;
    const centred = vectors.map((vector) => Array.from(vector, (x, j) => x - mean[j]));
    let total = 0;
    for (const row of centred) for (const x of row) total += x * x;

    const fewer = n <= d;  // the n x n Gram matrix X X', else the d x d X'X
    const size = fewer ? n : d;
    const rows = centred.map((row) => Float64Array.from(row));
    const gram = new Float64Array(size * size);
    if (fewer) {
      for (let p = 0; p < n; p++) {
        for (let q = p; q < n; q++) {
          let dot = 0;
          for (let j = 0; j < d; j++) dot += rows[p][j] * rows[q][j];
          gram[p * size + q] = gram[q * size + p] = dot;
        }
      }
    } else {
      // Row after row, so each pass reads one vector in order (the sums run over i as before).
      for (const row of rows) {
        for (let p = 0; p < d; p++) {
          const x = row[p];
          for (let q = p; q < d; q++) gram[p * d + q] += x * row[q];
        }
      }
      for (let p = 0; p < d; p++) for (let q = p + 1; q < d; q++) gram[q * d + p] = gram[p * d + q];
    }
    const { values, vectors: eigen } = symmetricEigen(gram, size);
    const order = E.bestFirst(values).slice(0, 2);
    const axes = order.map((column) => {
      const axis = fewer
        ? Array.from({ length: d }, (_, j) => centred.reduce((sum, row, i) => sum + row[j] * eigen[i * size + column], 0))
        : Array.from({ length: d }, (_, j) => eigen[j * size + column]);
      const norm = Math.sqrt(axis.reduce((sum, x) => sum + x * x, 0));
      let largest = 0;
      axis.forEach((x, j) => { if (Math.abs(x) > Math.abs(axis[largest])) largest = j; });
      const sign = axis[largest] < 0 ? -1 : 1;
      return axis.map((x) => (sign * x) / norm);
    });
    return { mean, axes, share: order.map((column) => values[column] / total) };
  }

  Object.assign(E, { project, byNeighbours, principalAxes });
})();
