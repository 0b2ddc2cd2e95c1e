/**
 * Just enough of the protobuf wire format to write a one-node ONNX model (ModelProto -> GraphProto -> NodeProto,
 * ValueInfoProto with symbolic dims): the stored-corpus products run as an ONNX graph built here, no model file.
 */
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
};
const key = (field: number, wire: 0 | 2): number[] => varint((field << 3) | wire);
const message = (field: number, body: readonly number[]): number[] => [...key(field, 2), ...varint(body.length), ...body];
const text = (field: number, value: string): number[] => message(field, [...Buffer.from(value, 'utf8')]);
const integer = (field: number, value: number): number[] => [...key(field, 0), ...varint(value)];

const FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

/** A float tensor's ValueInfoProto; a string dim is symbolic. */
function valueInfo(field: 11 | 12, name: string, dims: readonly (string | number)[]): number[] {
  const shape = dims.flatMap((d) => message(1, typeof d === 'string' ? text(2, d) : integer(1, d)));
  return message(field, [...text(1, name), ...message(2, message(1, [...integer(1, FLOAT), ...message(2, shape)]))]);
}

const intAttribute = (name: string, value: number) => message(5, [...text(1, name), ...integer(3, value), ...integer(20, ATTRIBUTE_INT)]);
const intsAttribute = (name: string, values: readonly number[]) =>
  message(5, [...text(1, name), ...values.flatMap((v) => integer(8, v)), ...integer(20, ATTRIBUTE_INTS)]);

/**
 * dots[q][d] = Q[q] . D[d] (Gemm with transB) and squares[d] = |D[d]|^2 (ReduceSumSquare over the width), for
 * Q [queries, width] and D [documents, width], fp32 (opset 13).
 */
export function shardProductsModel(dimensions: number): Uint8Array {
  const gemm = message(1, [...text(1, 'Q'), ...text(1, 'D'), ...text(2, 'dots'), ...text(4, 'Gemm'), ...intAttribute('transB', 1)]);
  const norms = message(1, [
    ...text(1, 'D'),
    ...text(2, 'squares'),
    ...text(4, 'ReduceSumSquare'),
    ...intsAttribute('axes', [1]),
    ...intAttribute('keepdims', 0),
  ]);
  const graph = [
    ...gemm,
    ...norms,
    ...text(2, 'shard-products'),
    ...valueInfo(11, 'Q', ['queries', dimensions]),
    ...valueInfo(11, 'D', ['documents', dimensions]),
    ...valueInfo(12, 'dots', ['queries', 'documents']),
    ...valueInfo(12, 'squares', ['documents']),
  ];
  return Uint8Array.from([...integer(1, 8), ...message(8, [...text(1, ''), ...integer(2, 13)]), ...message(7, graph)]);
}
