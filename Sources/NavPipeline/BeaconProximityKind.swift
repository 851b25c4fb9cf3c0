import Foundation
import NavAids
import NavCore
import NavIO
import NavReport
import NavSignal

/// Beacon proximity (docs/aids.md) as a result kind: the RSSI filters of the spec's `proximity:`
/// list compared on every input session with positioned beacons and ground truth. A unit is
/// (input, filter); its metrics leave out the confusion counts that are zero.
public struct BeaconProximityKind: ExperimentKind {
    public init() {}
    public var name: String { "proximity" }
    public var csvFile: String { "proximity.csv" }
    public var parameterColumns: [String] { ["filter"] }
    public func isAsked(by spec: ExperimentSpec) -> Bool { !spec.proximity.isEmpty }
    public var gatedCSV: String? { csvFile }
    /// `proximity: [FILTER, …]` and `proximity_options: {…}` (ProximityFitOptions.swift).
    public var specSections: [KindSpecSection] {
        [
            .filterList(key: Self.specKey, summary: "a list of RSSI filters (filter specs)") { (f: String) throws(FilterSpecError) in
                _ = try FilterSpec(parsing: f)
            },
            KindSpecSection(
                key: ProximityFitOptions.specKey, summary: "scans and path-loss fit of the proximity experiment",
                overrideKeys: ProximityFitOptions.keys,
                read: { v, context throws(SpecError) in try ProximityFitOptions.parse(v, file: context.file) },
                yaml: \.resolvedYAML),
        ]
    }
    static let specKey = "proximity"

    public func plan(_ plan: ExperimentPlan) -> PlannedKind {
        .perUnit(
            name, asked: isAsked(by: plan.spec), units: { units(of: plan) }, parameterColumns: parameterColumns, accepts: { accepts($0, of: $1) },
            run: {
                try run($0, plan: plan)
            }, section: { section($0, plan: plan) })
    }

    /// Every input × filter, inputs in name order.
    ///
    /// Complexity: O(inputs × filters).
    public func units(of plan: ExperimentPlan) -> [WorkUnit] {
        // Non-default scan and fit options are part of every unit's key (defaults keep earlier keys).
        let options = plan.spec.proximityOptions
        return perInputUnits(
            kind: name, plan: plan, configurations: plan.spec.proximity, keyParts: { options.isDefault ? [$0] : [$0, options.canonical] }
        ) { "\($0) [proximity \($1)]" }
    }

    /// Applies to a session with a `ble` stream, a beacon of known position and ground truth.
    public func run(_ unit: WorkUnit, plan: ExperimentPlan) throws -> UnitOutcome {
        if let streams = plan.inputs.entries[unit.input]?.streams, !streams.isSuperset(of: [.ble, .groundTruth]) {
            return .notApplicable("no ble or ground-truth stream")
        }
        let s = try plan.session(unit.input)
        guard let ble = s.ble, s.groundTruth != nil, ble.beacons.contains(where: { $0.position != nil }) else {
            return .notApplicable("no beacon with a known position, or no ground truth")
        }
        var p = ProximityParameters()
        plan.spec.proximityOptions.apply(to: &p)
        p.filter = unit.configuration
        return UnitOutcome(metrics: try runProximity(s, parameters: p).1.filter { !$0.name.hasPrefix("confusion_") || $0.value > 0 })
    }

    /// A stored outcome counts when it has the balanced accuracy (one stored before it is computed again).
    public func accepts(_ outcome: UnitOutcome, of unit: WorkUnit) -> Bool {
        outcome.metrics.isEmpty || outcome.metrics.contains { $0.name == "balanced_accuracy" }
    }

    public func section(_ results: [(unit: WorkUnit, outcome: UnitOutcome?)], plan: ExperimentPlan) -> ReportSection {
        let table = outcomeTable(results, parameterColumns: parameterColumns)
        let compared = pairedConfigurationReport(
            table, options: plan.spec.statistics,
            keyMetrics: [
                "balanced_accuracy", "class_accuracy", "distance_error_rmse", "false_exits_per_minute", "enter_latency_mean", "exit_latency_mean",
            ],
            title: "Beacon proximity", units: "sessions")
        let markdown =
            "\n## Beacon proximity\n\nRSSI filters compared on every session with positioned beacons and ground truth "
            + "(docs/aids.md), paired within each session (the units). `balanced_accuracy` (the mean of the per-class recalls) "
            + "leads: most readings are truly far, so `class_accuracy` can be high while near is missed. All rows: `proximity.csv`.\n\n"
            + compared.markdown
        return ReportSection(markdown: markdown, files: [(csvFile, table.csv)], findings: [compared.finding])
    }
}

extension ExperimentSpec {
    /// The RSSI filters of the proximity experiment, run on every session with beacons (`proximity:`; none when empty).
    public var proximity: [String] { kindSection(BeaconProximityKind.specKey, as: [String].self) ?? [] }
    /// Scans and path-loss fit of the proximity experiment (`proximity_options:`).
    public var proximityOptions: ProximityFitOptions {
        kindSection(ProximityFitOptions.specKey, as: ProximityFitOptions.self) ?? ProximityFitOptions()
    }
}
