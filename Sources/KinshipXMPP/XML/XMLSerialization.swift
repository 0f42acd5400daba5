extension XMLElement {
    /// The element as XML text. `xmlns` is written where the namespace differs from
    /// `parentNamespace` (the stream's `jabber:client` for a stanza).
    public func xmlString(parentNamespace: String? = nil) -> String {
        var output = ""
        write(to: &output, parentNamespace: parentNamespace)
        return output
    }

    private func write(to output: inout String, parentNamespace: String?) {
        output += "<"
        output += name
        if namespace != parentNamespace {
            output += " xmlns=\""
            output += XMLEscaping.attribute(namespace ?? "")
            output += "\""
        }
        for attribute in attributes {
            output += " "
            output += attribute.name
            output += "=\""
            output += XMLEscaping.attribute(attribute.value)
            output += "\""
        }
        guard !children.isEmpty else {
            output += "/>"
            return
        }
        output += ">"
        for child in children {
            switch child {
            case .element(let element): element.write(to: &output, parentNamespace: namespace)
            case .text(let text): output += XMLEscaping.text(text)
            }
        }
        output += "</"
        output += name
        output += ">"
    }
}

/// Escaping for text and attribute values.
public enum XMLEscaping {
    /// Text content: `&`, `<` and `>` escaped.
    public static func text(_ string: String) -> String {
        escape(string, inAttribute: false)
    }

    /// An attribute value in double quotes: also `"`, `'` and the white space that attribute
    /// normalisation would turn into spaces.
    public static func attribute(_ string: String) -> String {
        escape(string, inAttribute: true)
    }

    private static func escape(_ string: String, inAttribute: Bool) -> String {
        let special: (UInt8) -> Bool = { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || (inAttribute && (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == 0x09 || byte == 0x0A || byte == 0x0D))
        }
        guard string.utf8.contains(where: special) else { return string }
        var output = ""
        output.reserveCapacity(string.utf8.count + 8)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "'" where inAttribute: output += "&apos;"
            case "\t" where inAttribute: output += "&#9;"
            case "\n" where inAttribute: output += "&#10;"
            case "\r" where inAttribute: output += "&#13;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
