extension MappingPreset {
    /// The presets that come with the toolkit, in the order `timeline presets` lists them
    /// and detection tries them. Each is a file in `Sources/TimelineKit/Mapping/Presets`,
    /// compiled into the library (SwiftPM's `embedInCode`), so the tool needs no files at
    /// run time. docs/presets.md describes them.
    public static let builtIn: [MappingPreset] = [
        ("wechat-pay", PackageResources.wechat_pay_json),
        ("alipay", PackageResources.alipay_json),
        ("paypal", PackageResources.paypal_json),
        ("stripe", PackageResources.stripe_json),
        ("shopify-orders", PackageResources.shopify_orders_json),
        ("aftership", PackageResources.aftership_json),
        ("17track", PackageResources.track17_json),
        ("kuaidi100", PackageResources.kuaidi100_json),
    ].compactMap { name, bytes in try? MappingPreset(json: bytes, name: name) }
}
