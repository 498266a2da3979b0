/* site_src/engine/projection.js: the twin of engine/projection.py (principal_axes, project,
   by_neighbours): vectors on a plane, the two directions of most variance (PCA), a vector
   projected onto them, and a place found from neighbours' places.

   project and byNeighbours add one term at a time in order, as Python does: equal bit for bit.
   principalAxes computes the same plane another way than numpy's SVD: the eigenvectors of the
   smaller of the centred vectors' two Gram matrices (n x n when there are fewer vectors than
   numbers in each, d x d otherwise), by cyclic Jacobi rotations until what is left off the
   diagonal is below 1e-24 of the diagonal's size, its two largest eigenvalues' vectors taken
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
   *  (the columns of `vectors`), by cyclic Jacobi rotations. */
  function symmetricEigen(matrix, size) {
    const a = Float64Array.from(matrix);
    const v = new Float64Array(size * size);
    for (let i = 0; i < size; i++) v[i * size + i] = 1;
    for (let sweep = 0; sweep < 100; sweep++) {
      let off = 0, diagonal = 0;
      for (let p = 0; p < size; p++) {
        diagonal += a[p * size + p] ** 2;
        for (let q = p + 1; q < size; q++) off += a[p * size + q] ** 2;
      }
      if (off <= 1e-24 * diagonal) break;
      for (let p = 0; p < size - 1; p++) {
        for (let q = p + 1; q < size; q++) {
          const apq = a[p * size + q];
          if (apq === 0) continue;
          // The rotation in the (p, q) plane that zeroes a[p][q]: t = tan, the smaller root.
          const theta = (a[q * size + q] - a[p * size + p]) / (2 * apq);
          const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
          const c = 1 / Math.sqrt(t * t + 1), s = t * c;
          for (let r = 0; r < size; r++) {
            const arp = a[r * size + p], arq = a[r * size + q];
            a[r * size + p] = c * arp - s * arq;
            a[r * size + q] = s * arp + c * arq;
          }
          for (let r = 0; r < size; r++) {
            const apr = a[p * size + r], aqr = a[q * size + r];
            a[p * size + r] = c * apr - s * aqr;
            a[q * size + r] = s * apr + c * aqr;
          }
          a[p * size + q] = a[q * size + p] = 0;
          for (let r = 0; r < size; r++) {
            const vrp = v[r * size + p], vrq = v[r * size + q];
            v[r * size + p] = c * vrp - s * vrq;
            v[r * size + q] = s * vrp + c * vrq;
          }
        }
      }
    }
    return { values: Array.from({ length: size }, (_, i) => a[i * size + i]), vectors: v };
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
    const gram = new Float64Array(size * size);
    for (let p = 0; p < size; p++) {
      for (let q = p; q < size; q++) {
        let dot = 0;
        if (fewer) for (let j = 0; j < d; j++) dot += centred[p][j] * centred[q][j];
        else for (let i = 0; i < n; i++) dot += centred[i][p] * centred[i][q];
        gram[p * size + q] = gram[q * size + p] = dot;
      }
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
