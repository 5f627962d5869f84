/// Builds daily forecasts from a provider's hourly or 3-hourly steps (OpenWeatherMap, MET Norway), by the location's calendar.
enum DailyAggregation {
    /// One day per local date: lowest and highest temperature, summed precipitation,
    /// highest chance, strongest wind, and the condition of the step nearest local noon.
    /// Today also takes the current conditions into account, and its sunrise and sunset.
    static func days(from entries: [HourlyForecast], current: CurrentConditions, utcOffset: Int) -> [DailyForecast] {
        var order: [String] = []
        var groups: [String: [HourlyForecast]] = [:]
        for entry in entries {
            let day = LocalTime(entry.time, utcOffset: utcOffset).dateString
            if groups[day] == nil { order.append(day) }
            groups[day, default: []].append(entry)
        }
        let today = LocalTime(current.time, utcOffset: utcOffset).dateString
        return order.filter { $0 >= today }.prefix(7).map { day in
            let steps = groups[day] ?? []
            var temperatures = steps.compactMap(\.temperature)
            if day == today, let now = current.temperature { temperatures.append(now) }
            let noon = steps.min { distanceFromNoon($0, utcOffset) < distanceFromNoon($1, utcOffset) }
            let amounts = steps.compactMap(\.precipitation)
            var forecast = DailyForecast(
                date: day,
                temperatureMin: temperatures.min(),
                temperatureMax: temperatures.max(),
                precipitation: amounts.isEmpty ? nil : amounts.reduce(0, +),
                precipitationProbability: steps.compactMap(\.precipitationProbability).max(),
                windSpeedMax: steps.compactMap(\.windSpeed).max(),
                condition: noon?.condition ?? .unknown,
                description: noon?.description ?? "",
                sunrise: day == today ? current.sunrise : nil,
                sunset: day == today ? current.sunset : nil)
            var indexes = steps.compactMap(\.uvIndex)
            if day == today, let now = current.uvIndex { indexes.append(now) }
            forecast.uvIndexMax = indexes.max()
            return forecast
        }
    }

    /// `current` with today's lowest and highest temperature from `days` (built by `days`,
    /// so today comes first when there is any of it left); none when `days` has no today.
    static func todaysRange(_ current: CurrentConditions, days: [DailyForecast], utcOffset: Int) -> CurrentConditions {
        var answer = current
        let today = days.first.flatMap { $0.date == LocalTime(current.time, utcOffset: utcOffset).dateString ? $0 : nil }
        answer.temperatureMin = today?.temperatureMin
        answer.temperatureMax = today?.temperatureMax
        return answer
    }

    private static func distanceFromNoon(_ entry: HourlyForecast, _ utcOffset: Int) -> Int {
        let local = LocalTime(entry.time, utcOffset: utcOffset)
        return abs(local.hour * 60 + local.minute - 12 * 60)
    }
}
