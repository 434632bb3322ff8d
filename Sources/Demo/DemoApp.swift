/// The demo app's entry point (filled in by the demo issue).
@main
struct DemoApp {
    static func main() async {
        print("The demo arrives with the demo issue.")
    }
}
