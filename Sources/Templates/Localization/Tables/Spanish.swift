extension BuiltInStrings {
    static let spanish: [StringKey: String] = [
        .direction: "ltr",
        .appGeneric: "la app",
        .deepViewSubtitleAppStore: "En el App Store",
        .deepViewSubtitleTestFlight: "Beta en TestFlight",
        .deepViewContinue: "Continuar",
        .deepViewExplain: "Continuar copia un enlace que {app} te pedirá pegar después de la instalación.",
        .deepViewCopiedAppStore: "Enlace copiado. Abriendo el App Store…",
        .deepViewCopiedTestFlight: "Enlace copiado. Abriendo TestFlight…",
        .previewOpen: "Abrir enlace",
        .handoffTitle: "Continúa en la app",
        .handoffIntro: "Abriste un enlace pensado para {app}. Llegarás en tres pasos:",
        .handoffStepInstall: "Instala {app}.",
        .handoffStepOpen: "Ábrela.",
        .handoffStepPaste: "Toca Pegar cuando te lo pida y te llevará justo adonde apunta el enlace.",
        .handoffButtonAppStore: "Abrir el App Store",
        .handoffButtonTestFlight: "Abrir TestFlight",
        .notFoundTitle: "Enlace no encontrado",
        .notFoundBody: "Este enlace no existe. Comprueba que esté bien escrito o pide uno nuevo a quien te lo envió.",
        .disabledTitle: "Este enlace ya no está activo",
        .disabledBody: "Su propietario lo desactivó. Si todavía lo necesitas, pide uno nuevo a quien te lo envió.",
        .expiredTitle: "Este enlace ha caducado",
        .expiredBody:
            "Solo funcionaba hasta una fecha que ya pasó. Si todavía lo necesitas, pide uno nuevo a quien te lo envió.",
        .errorTitle: "Algo salió mal",
        .errorBody: "No se pudo abrir este enlace en este momento. Inténtalo de nuevo en unos instantes.",
        .rootTitle: "Aquí viven enlaces cortos",
        .rootBody:
            "Esta dirección aloja enlaces cortos que abren apps y sitios web. Abre el enlace completo que recibiste.",
    ]
}
