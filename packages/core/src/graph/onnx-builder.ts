/**
 * A thin op helper over `onnx-proto` (tinygrad style): every ONNX op the decoder uses has one
 * method here, and that method is the only place its encoding (inputs, attributes) lives.
 * Values are referred to by name; each method returns the name of the op's output.
 */
import { onnx } from "onnx-proto";

/** Opset of the default ONNX domain the graphs are built for. */
export const ONNX_OPSET = 17;
/** Opset of ONNX Runtime's `com.microsoft` domain (MatMulNBits, used by quantized graphs). */
export const MS_OPSET = 1;
/** ONNX IR version matching opset 17. */
export const IR_VERSION = 8;

/** Element types the builder declares for graph inputs and outputs. */
export type ElemType = "float32" | "int64" | "int32" | "uint8" | "int8" | "float16";

const ELEM_TYPE_CODE: Record<ElemType, number> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
  int32: onnx.TensorProto.DataType.INT32,
  uint8: onnx.TensorProto.DataType.UINT8,
  int8: onnx.TensorProto.DataType.INT8,
  float16: onnx.TensorProto.DataType.FLOAT16,
};

/** A dimension: a fixed size, or a symbolic name for a size known only at run time. */
export type Dim = number | string;

/** Data an initializer may hold. */
export type InitializerData = Float32Array | BigInt64Array | Int32Array | Uint8Array | Uint16Array;

/** An initializer kept as a typed array until the model is serialised. */
export interface Initializer {
  name: string;
  dims: number[];
  elemType: ElemType;
  data: InitializerData;
}

function elemTypeOf(data: InitializerData, explicit?: ElemType): ElemType {
  if (explicit) return explicit;
  if (data instanceof Float32Array) return "float32";
  if (data instanceof BigInt64Array) return "int64";
  if (data instanceof Int32Array) return "int32";
  if (data instanceof Uint16Array) return "float16";
  return "uint8";
}

/** Attribute values accepted by {@link GraphBuilder.node}. */
export type AttributeValue = number | string | number[] | { float: number };

function encodeAttribute(name: string, value: AttributeValue): onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof value === "number") return { name, type: T.INT, i: value };
  if (typeof value === "string") return { name, type: T.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: T.INTS, ints: value };
  return { name, type: T.FLOAT, f: value.float };
}

/**
 * Builds one ONNX graph. Op methods take input value names and return output value names.
 *
 * @example
 * ```ts
 * const g = new GraphBuilder("demo");
 * const x = g.input("x", "float32", [1, "n"]);
 * const w = g.initializer("w", new Float32Array([2]), [1]);
 * g.output(g.mul(x, w), "y", "float32", [1, "n"]);
 * const bytes = g.serialize();
 * ```
 */
export class GraphBuilder {
  readonly nodes: onnx.INodeProto[] = [];
  readonly initializers: Initializer[] = [];
  readonly inputs: onnx.IValueInfoProto[] = [];
  readonly outputs: onnx.IValueInfoProto[] = [];
  private counter = 0;
  private readonly constantCache = new Map<string, string>();

  constructor(readonly name: string) {}

  /** A fresh value name with a readable prefix. */
  fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }

  /** Declares a graph input. */
  input(name: string, elemType: ElemType, dims: Dim[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /**
   * Declares `value` a graph output under `name` and returns `name`, which callers use from then on.
   * The producing node's output is renamed in place when nothing consumes it yet, so no Identity
   * copy is made (it would copy a whole KV cache per step).
   */
  output(value: string, name: string, elemType: ElemType, dims: Dim[]): string {
    if (value !== name) {
      const producer = this.nodes.find((n) => n.output?.includes(value));
      const consumed = this.nodes.some((n) => n.input?.includes(value));
      if (producer?.output && !consumed)
        producer.output = producer.output.map((o) => (o === value ? name : o));
      else this.node("Identity", [value], { outputs: [name] });
    }
    this.outputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** Adds a constant tensor stored with the model (weights, shapes, tables). */
  initializer(name: string, data: InitializerData, dims: number[], elemType?: ElemType): string {
    this.initializers.push({ name, dims, elemType: elemTypeOf(data, elemType), data });
    return name;
  }

  /** A small int64 constant, shared by every op that asks for the same values. */
  int64s(values: number[]): string {
    const key = `i64:${values.join(",")}`;
    const cached = this.constantCache.get(key);
    if (cached) return cached;
    const name = this.initializer(
      this.fresh("const_i64"),
      BigInt64Array.from(values, (v) => BigInt(v)),
      [values.length],
    );
    this.constantCache.set(key, name);
    return name;
  }

  /** A float32 scalar constant (rank 0), shared like {@link int64s}. */
  scalar(value: number): string {
    const key = `f32:${value}`;
    const cached = this.constantCache.get(key);
    if (cached) return cached;
    const name = this.initializer(this.fresh("const_f32"), new Float32Array([value]), []);
    this.constantCache.set(key, name);
    return name;
  }

  /** Adds a node; returns its outputs. Use the named helpers below instead where one exists. */
  node(
    opType: string,
    inputs: string[],
    options: {
      outputs?: string[] | number;
      attributes?: Record<string, AttributeValue>;
      domain?: string;
    } = {},
  ): string[] {
    const outputs =
      typeof options.outputs === "number" || options.outputs === undefined
        ? Array.from({ length: options.outputs ?? 1 }, () => this.fresh(opType.toLowerCase()))
        : options.outputs;
    const attribute = Object.entries(options.attributes ?? {}).map(([k, v]) => encodeAttribute(k, v));
    this.nodes.push({
      opType,
      input: inputs,
      output: outputs,
      name: this.fresh(`n_${opType}`),
      attribute,
      domain: options.domain ?? "",
    });
    return outputs;
  }

  private op(opType: string, inputs: string[], attributes?: Record<string, AttributeValue>): string {
    return this.node(opType, inputs, { attributes })[0];
  }

  /** Elementwise `a + b` (broadcasting). */
  add(a: string, b: string): string {
    return this.op("Add", [a, b]);
  }
  /** Elementwise `a - b` (broadcasting). */
  sub(a: string, b: string): string {
    return this.op("Sub", [a, b]);
  }
  /** Elementwise `a * b` (broadcasting). */
  mul(a: string, b: string): string {
    return this.op("Mul", [a, b]);
  }
  /** Elementwise `a / b` (broadcasting). */
  div(a: string, b: string): string {
    return this.op("Div", [a, b]);
  }
  /** Elementwise `-x`. */
  neg(x: string): string {
    return this.op("Neg", [x]);
  }
  /** Elementwise square root. */
  sqrt(x: string): string {
    return this.op("Sqrt", [x]);
  }
  /** Elementwise `x ** exponent`. */
  pow(x: string, exponent: string): string {
    return this.op("Pow", [x, exponent]);
  }
  /** Elementwise logistic sigmoid. */
  sigmoid(x: string): string {
    return this.op("Sigmoid", [x]);
  }
  /** Elementwise cosine. */
  cos(x: string): string {
    return this.op("Cos", [x]);
  }
  /** Elementwise sine. */
  sin(x: string): string {
    return this.op("Sin", [x]);
  }
  /** Matrix product with numpy broadcasting of leading axes. */
  matmul(a: string, b: string): string {
    return this.op("MatMul", [a, b]);
  }
  /** `alpha * A' @ B' + beta * C` with `'` meaning optionally transposed. */
  gemm(
    a: string,
    b: string,
    c: string | undefined,
    options: { transA?: boolean; transB?: boolean } = {},
  ): string {
    return this.op("Gemm", c ? [a, b, c] : [a, b], {
      transA: options.transA ? 1 : 0,
      transB: options.transB ? 1 : 0,
    });
  }
  /** Rows (or slices along `axis`) of `data` at `indices`. */
  gather(data: string, indices: string, axis = 0): string {
    return this.op("Gather", [data, indices], { axis });
  }
  /** Reshape to `shape` (0 copies the input dim, -1 is inferred). */
  reshape(x: string, shape: number[]): string {
    return this.op("Reshape", [x, this.int64s(shape)]);
  }
  /** Permutes axes. */
  transpose(x: string, perm: number[]): string {
    return this.op("Transpose", [x], { perm });
  }
  /** Joins values along `axis`. */
  concat(values: string[], axis: number): string {
    return this.op("Concat", values, { axis });
  }
  /** Splits `x` along `axis` into pieces of the given sizes. */
  split(x: string, sizes: number[], axis: number): string[] {
    return this.node("Split", [x, this.int64s(sizes)], { outputs: sizes.length, attributes: { axis } });
  }
  /** Inserts size-1 axes. */
  unsqueeze(x: string, axes: number[]): string {
    return this.op("Unsqueeze", [x, this.int64s(axes)]);
  }
  /** Softmax along `axis`. */
  softmax(x: string, axis = -1): string {
    return this.op("Softmax", [x], { axis });
  }
  /** Mean over `axes`. */
  reduceMean(x: string, axes: number[], keepdims = true): string {
    return this.op("ReduceMean", [x], { axes, keepdims: keepdims ? 1 : 0 });
  }
  /** Casts to an element type. */
  cast(x: string, to: ElemType): string {
    return this.op("Cast", [x], { to: ELEM_TYPE_CODE[to] });
  }

  /** The graph as an `onnx.ModelProto` with every initializer's data inline. */
  toModelProto(externalize?: (init: Initializer) => onnx.ITensorProto | undefined): onnx.ModelProto {
    const initializer = this.initializers.map((init) => externalize?.(init) ?? inlineTensor(init));
    return onnx.ModelProto.create({
      irVersion: IR_VERSION,
      producerName: "rtool",
      opsetImport: [
        { domain: "", version: ONNX_OPSET },
        { domain: "com.microsoft", version: MS_OPSET },
      ],
      graph: {
        name: this.name,
        node: this.nodes,
        initializer,
        input: this.inputs,
        output: this.outputs,
      },
    });
  }

  /** Serialises the whole model into one buffer (protobuf caps this at 2 GB; see `saveModel`). */
  serialize(): Uint8Array {
    return onnx.ModelProto.encode(this.toModelProto()).finish();
  }

  /** Total bytes of initializer data. */
  initializerBytes(): number {
    return this.initializers.reduce((sum, init) => sum + init.data.byteLength, 0);
  }
}

/** Bytes of an initializer's data, without copying. */
export function initializerBytesView(init: Initializer): Uint8Array {
  return new Uint8Array(init.data.buffer, init.data.byteOffset, init.data.byteLength);
}

function inlineTensor(init: Initializer): onnx.ITensorProto {
  return {
    name: init.name,
    dims: init.dims,
    dataType: ELEM_TYPE_CODE[init.elemType],
    rawData: initializerBytesView(init),
  };
}

/** A tensor whose data lives in a side file at `offset` (ONNX external data). */
export function externalTensor(init: Initializer, location: string, offset: number): onnx.ITensorProto {
  return {
    name: init.name,
    dims: init.dims,
    dataType: ELEM_TYPE_CODE[init.elemType],
    dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
    externalData: [
      { key: "location", value: location },
      { key: "offset", value: String(offset) },
      { key: "length", value: String(init.data.byteLength) },
    ],
  };
}

function valueInfo(name: string, elemType: ElemType, dims: Dim[]): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: ELEM_TYPE_CODE[elemType],
        shape: { dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}
