#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HereWeatherCore

/// What must hold for any nowcast a decoder returns, read at any time: the outlook stays
/// within its two-hour horizon, its spell in order, and its words and bars are plain text.
public enum NowcastChecks {
    public static func check(_ report: WeatherReport, at times: [Date]) {
        guard let nowcast = report.nowcast else { return }
        require(nowcast.stepSeconds >= 1, "a nowcast step of \(nowcast.stepSeconds) s")
        requireFinite(nowcast.issued.timeIntervalSince1970, "the nowcast's time")
        for at in times + [nowcast.issued] {
            guard let outlook = NowcastOutlook(nowcast, at: at) else { continue }
            // The horizon rule: at least 15 minutes (never "in the next 0 min"), at most two hours,
            // every step's rate known and within physical limits.
            require(outlook.horizonSeconds >= Nowcast.minimumHorizonSeconds && outlook.horizonSeconds <= 7200,
                    "a horizon of \(outlook.horizonSeconds) s")
            require(outlook.steps.allSatisfy { ($0.intensity ?? -1) >= 0 && ($0.intensity ?? .infinity) <= Nowcast.maximumIntensity },
                    "a step's rate outside 0...\(Nowcast.maximumIntensity) mm/h")
            if let starts = outlook.startsAt {
                require(starts >= outlook.now && starts < outlook.horizonEnd, "a start outside the horizon")
            }
            if let ends = outlook.endsAt {
                require(ends > (outlook.startsAt ?? outlook.now) && ends <= outlook.horizonEnd, "an end outside the spell")
            }
            requireFinite(outlook.peak, "the nowcast's peak")
            for icons in Configuration.OutputSettings.Icons.allCases {
                var output = Configuration.OutputSettings()
                output.icons = icons
                let text = NowcastText(outlook, units: report.units, utcOffset: report.utcOffset, output: output)
                for (what, line) in [("sentence", text.sentence), ("short form", text.short), ("bars", text.bars(width: 40))] {
                    requirePlainText(line, "the nowcast's \(what)")
                    require(!line.contains("\n"), "the nowcast's \(what) is one line")
                    require(!line.contains(" 0 min"), "the nowcast's \(what) says 0 min: \(line)")
                }
                require(TextWidth.columns(text.bars(width: 80)) <= 80, "the nowcast's bars are wider than 80")
            }
        }
    }
}
