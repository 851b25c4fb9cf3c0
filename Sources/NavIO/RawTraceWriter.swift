import NavCore

/// Writes a `LoadedTrace` back as trace format v1 (atomically): every attribute and
/// dataset it holds, with its units. Used to derive a file from another (a filtered
/// stream, an import) without losing what navbench does not model.
public func writeTrace(_ trace: LoadedTrace, to path: String) throws(TraceError) {
    let w = try HDF5Writer(path: path)
    try w.setRootAttributes(trace.attributes)
    for stream in trace.streams {
        guard let spec = TraceSchema.stream(named: stream.name) else { continue }
        for ds in spec.datasets {
            guard let raw = stream.data[ds.name] else { continue }
            let path = "/\(stream.name)/\(ds.name)"
            switch raw {
            case let .float(shape, v): try w.write(path, doubles: v, shape: shape, units: stream.units[ds.name] ?? ds.units ?? "1")
            case let .integer(shape, v):
                try w.write(path, int32s: v, shape: shape, units: stream.units[ds.name] ?? ds.units ?? "1")
                // The schema's sentinel for an unknown floor (docs/trace-format.md), as TraceWriter writes it.
                if path == "/location/floor" { try w.setAttribute("missing_value", integer: Int64(LocationStream.noFloor), on: path) }
            case let .string(v): try w.write(path, strings: v)
            }
        }
        for key in stream.attributes.keys.sorted() { try w.setAttribute(key, string: stream.attributes[key]!, on: "/\(stream.name)") }
    }
    try w.commit()
}
