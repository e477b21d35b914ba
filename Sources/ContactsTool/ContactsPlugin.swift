import TrailheadPluginKit
import TrailheadSchema

/// The contacts plugin: `searchContacts` over the user's vCard file.
@_cdecl("trailhead_plugin_v1")
public func trailheadPluginV1() -> UnsafeRawPointer {
    Plugin(
        name: "contacts",
        version: "1.0.0",
        tools: [SearchContactsTool(book: ContactBook.shared)],
        isolation: "process",
        timeoutMs: 5000,
        config: ["contacts": "Data/sample/contacts.vcf"],
        permissions: ["read": ["Data/sample/contacts.vcf"], "write": [], "network": false],
        open: { config in
            guard let path = config.path("contacts") else {
                throw ToolFailure("config has no \"contacts\" path (the vCard file to read)")
            }
            try ContactBook.shared.open(path: path)
        }
    ).export()
}
