import Foundation
import SimKernel
import Yams

/// The one way latsim reads a YAML document (scenarios, device presets,
/// tables of measurements): composed by libyaml, then bounded by what it
/// produces, not only by the size of the file.
///
/// An alias repeats its anchor's node without repeating its text, so a
/// small file can stand for an enormous value ("billion laughs"): a 740 KB
/// scenario once stood for five million animation intervals. After
/// composing, the document is walked with every alias expanded, counting
/// nodes and scalar bytes, and refused past ``maximumNodes`` or
/// ``maximumScalarBytes`` (the walk stops at the limit, so refusing costs
/// no more than the limit). A document without aliases is at most 1 MiB of
/// text and stays within both limits.
///
/// libyaml's own messages quote the offending line; a message here names
/// the line and column and echoes at most ``LatsimError/echoLimit``
/// characters of anything from the file.
package enum YAMLDocument {
    /// The most nodes a document may expand to.
    static let maximumNodes = 200_000
    /// The most bytes of scalar text a document may expand to.
    static let maximumScalarBytes = 2 << 20

    /// How plain scalars are tagged: not at all. latsim reads every value
    /// from its text, as its key says (a number, a duration, a name), and
    /// never from a tag, so the YAML 1.1 rules (`yes` a boolean, `1_000` an
    /// integer, `<<` a merge) would change nothing it reads; they would
    /// only compile seven regular expressions on every start (Yams'
    /// `Resolver.default`, about a quarter of a short run's instructions).
    /// Keys are compared by their text: a quoted `"true"` and a plain
    /// `true` are the same key.
    package static let resolver = Resolver.basic

    /// Nothing is constructed from the nodes (latsim walks them), so the
    /// parser is given no constructor maps; and the text is UTF-8, given
    /// rather than looked up: Yams' default reads the environment on every
    /// parse and, when `YAMS_DEFAULT_ENCODING` is set, prints a line to
    /// standard output (which `--json -` must keep to itself).
    package static var constructor: Constructor { Constructor([:], [:], [:]) }
    package static var encoding: Parser.Encoding { .utf8 }

    /// The document's root (nil for an empty document), checked as the type
    /// says; `file` names it in errors.
    static func compose(_ text: String, file: String) throws(LatsimError) -> Node? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, resolver, constructor, encoding)
        } catch let e as YamlError {
            throw describe(e, file: file)
        } catch {
            throw LatsimError(file: file, problem: "not valid YAML: " + LatsimError.shortened("\(error)"))
        }
        if let root { try checkExpansion(root, file: file) }
        return root
    }

    /// Walks `root` with aliases expanded; throws past the limits.
    static func checkExpansion(_ root: Node, file: String) throws(LatsimError) {
        var nodes = 0, bytes = 0
        var stack: [Node] = [root]
        while let node = stack.popLast() {
            nodes += 1
            switch node {
            case .scalar(let s): bytes += s.string.utf8.count
            case .sequence(let seq): stack.append(contentsOf: seq)
            case .mapping(let m):
                for (k, v) in m { stack.append(k); stack.append(v) }
            case .alias: break
            }
            if nodes > maximumNodes || bytes > maximumScalarBytes {
                let what = nodes > maximumNodes ? "more than \(maximumNodes) values" : "more than \(maximumScalarBytes >> 20) MiB of text"
                throw LatsimError(file: file, line: node.mark?.line, column: node.mark?.column,
                                  problem: "the YAML document expands to \(what) (its aliases repeat what they name)",
                                  expected: "a document of at most \(maximumNodes) values and \(maximumScalarBytes >> 20) MiB once its aliases are expanded")
            }
        }
    }

    /// A libyaml error as one short paragraph: line, column and problem,
    /// never the offending line itself.
    static func describe(_ e: YamlError, file: String) -> LatsimError {
        func short(_ s: String) -> String { LatsimError.shortened(s) }
        switch e {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let ctx = context.map { short($0.text) + " (line \($0.mark.line)), " } ?? ""
            return LatsimError(file: file, line: mark.line, column: mark.column, problem: "malformed YAML: \(ctx)\(short(problem))")
        case let .duplicatedKeysInMapping(duplicates, context):
            let sorted = duplicates.sorted()
            var listed = sorted.prefix(3).map(short).joined(separator: ", ")
            if sorted.count > 3 { listed += " and \(sorted.count - 3) more" }
            return LatsimError(file: file, line: context.mark.line, column: context.mark.column,
                               problem: "malformed YAML: duplicated key\(sorted.count == 1 ? "" : "s") \(listed)")
        case let .reader(problem, offset, _, _):
            return LatsimError(file: file, problem: "malformed YAML: \(short(problem))" + (offset.map { " at byte \($0)" } ?? ""))
        case .dataCouldNotBeDecoded:
            return LatsimError(file: file, problem: "not UTF-8 text", expected: "a YAML file")
        default:
            return LatsimError(file: file, problem: "malformed YAML: " + short("\(e)"))
        }
    }
}
